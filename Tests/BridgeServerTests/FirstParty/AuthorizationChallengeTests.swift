import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// The authorization challenge endpoint over the wire (draft-ietf-oauth-first-party-apps-04): who a step-up signs
/// in, how a later step names its client, and how long a step-up `auth_session` is good for.
@Suite("Authorization challenge endpoint")
struct AuthorizationChallengeTests {
    /// §6.1: the auth_session restores *that* session's context; a posted username cannot swap the user.
    @Test func aStepUpKeepsTheUserItRestores() async throws {
        let bridge = try await FirstPartyFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let tokens = try await FirstPartyFixture.tokens(client)
            let stepUp = try #require(tokens.json["auth_session"] as? String)
            let other = FirstPartyFixture.other
            let swapped = try await FirstPartyFixture.challenge(
                client,
                FirstPartyFixture.first([("auth_session", stepUp), ("username", other.name), ("password", other.password)]))
            #expect(swapped.status == .badRequest)
            #expect(swapped.error == "invalid_request")
            #expect(swapped.json["authorization_code"] == nil)
            // The other user's password without a name is checked against the restored user: wrong.
            let asked = try await FirstPartyFixture.challenge(client, FirstPartyFixture.first([("auth_session", stepUp)]))
            #expect(asked.error == "insufficient_authorization")
            let chain = try #require(asked.json["auth_session"] as? String)
            let wrong = try await FirstPartyFixture.challenge(
                client, [("client_id", "partner-app"), ("auth_session", chain), ("password", other.password)])
            #expect(wrong.error == "insufficient_authorization")
            #expect(wrong.json["password_required"] as? Bool == true)
            // The restored user's name repeated (in other letter case) and password: the code, for that user.
            let next = try #require(wrong.json["auth_session"] as? String)
            let right = try await FirstPartyFixture.challenge(
                client,
                [
                    ("client_id", "partner-app"), ("auth_session", next), ("username", "DEMO@example.com"),
                    ("password", FirstPartyFixture.demo.password),
                ])
            let code = try #require(right.json["authorization_code"] as? String, "\(right.json)")
            let stepped = try await FirstPartyFixture.redeem(client, code: code)
            #expect(try await FirstPartyFixture.subject(of: stepped, in: bridge) == "demo")
        }
    }

    /// Identifier first (§5): a name given alone is the chain's; a later step cannot replace it either.
    @Test func aNameGivenEarlierIsNotReplacedLater() async throws {
        let bridge = try await FirstPartyFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let named = try await FirstPartyFixture.challenge(
                client, FirstPartyFixture.first([("username", FirstPartyFixture.demo.name)]))
            let chain = try #require(named.json["auth_session"] as? String)
            let other = FirstPartyFixture.other
            let swapped = try await FirstPartyFixture.challenge(
                client,
                [("client_id", "partner-app"), ("auth_session", chain), ("username", other.name), ("password", other.password)])
            #expect(swapped.error == "invalid_request")
            #expect(swapped.json["authorization_code"] == nil)
        }
    }

    /// §5.1: client_id is required only "if no auth_session is included"; one that is sent must be the session's.
    @Test func aLaterStepNamesItsClientByItsAuthSession() async throws {
        let bridge = try await FirstPartyFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let asked = try await FirstPartyFixture.challenge(client, FirstPartyFixture.first())
            #expect(asked.error == "insufficient_authorization")
            let chain = try #require(asked.json["auth_session"] as? String)
            let demo = FirstPartyFixture.demo
            let foreign = try await FirstPartyFixture.challenge(
                client, [("client_id", "files-lite"), ("auth_session", chain), ("username", demo.name), ("password", demo.password)])
            #expect(foreign.error == "invalid_session")
            // The refusal left the chain to its client, which needs no client_id to continue it.
            let signedIn = try await FirstPartyFixture.challenge(
                client, [("auth_session", chain), ("username", demo.name), ("password", demo.password)])
            #expect(signedIn.status == .ok, "\(signedIn.json)")
            let code = try #require(signedIn.json["authorization_code"] as? String)
            #expect(try await FirstPartyFixture.redeem(client, code: code).status == .ok)
            // A step-up auth_session names its client too.
            let tokens = try await FirstPartyFixture.tokens(client)
            let stepUp = try #require(tokens.json["auth_session"] as? String)
            let stepUpFields = FirstPartyFixture.first([("auth_session", stepUp)]).filter { $0.0 != "client_id" }
            let restored = try await FirstPartyFixture.challenge(client, stepUpFields)
            #expect(restored.error == "insufficient_authorization")
            #expect(restored.json["password_required"] as? Bool == true)
            let unknown = try await FirstPartyFixture.challenge(client, [("auth_session", SecretToken().value)])
            #expect(unknown.error == "invalid_session")
        }
    }

    /// A step-up auth_session belongs to its grant: revoking the refresh token (RFC 7009 §2.1 revokes the grant)
    /// ends it.
    @Test func aStepUpSessionDiesWithItsGrant() async throws {
        let bridge = try await FirstPartyFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let tokens = try await FirstPartyFixture.tokens(client)
            let stepUp = try #require(tokens.json["auth_session"] as? String)
            let refresh = try #require(tokens.refreshToken)
            let revoked = try await client.postForm(
                "/oauth2/revoke", ["token": refresh, "token_type_hint": "refresh_token", "client_id": "partner-app"])
            #expect(revoked.status == .ok)
            let refused = try await FirstPartyFixture.challenge(client, FirstPartyFixture.first([("auth_session", stepUp)]))
            #expect(refused.error == "invalid_session")
            #expect(refused.json["auth_session"] == nil)
        }
    }

    /// `firstPartyApps.stepUpSessionLifetimeSeconds` (a week by default) bounds it, not the refresh token's 90 days.
    @Test func aStepUpSessionLivesItsConfiguredLifetime() async throws {
        let bridge = try await FirstPartyFixture.make()
        #expect(bridge.configuration.firstPartyApps.stepUpSessionLifetimeSeconds == 604_800)
        try await bridge.app.makeApplication().test(.live) { client in
            let tokens = try await FirstPartyFixture.tokens(client)
            let stepUp = try #require(tokens.json["auth_session"] as? String)
            bridge.clock.advance(by: 604_799)
            let live = try await FirstPartyFixture.challenge(client, FirstPartyFixture.first([("auth_session", stepUp)]))
            #expect(live.error == "insufficient_authorization")
            bridge.clock.advance(by: 1)
            let expired = try await FirstPartyFixture.challenge(client, FirstPartyFixture.first([("auth_session", stepUp)]))
            #expect(expired.error == "invalid_session")
            #expect(expired.json["error_description"] as? String == "auth_session has expired")
        }
    }

    /// OpenID Connect Core §3.1.2.1 and RFC 6749 §3.3: without scope the client's default, never openid, so the
    /// token response has no ID token and no step-up auth_session (an OpenID request still gets both).
    @Test func aRequestWithoutScopeGetsNoIDTokenAndNoStepUpSession() async throws {
        let bridge = try await FirstPartyFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let demo = FirstPartyFixture.demo
            let fields = FirstPartyFixture.first([("username", demo.name), ("password", demo.password)])
            let answer = try await FirstPartyFixture.challenge(client, fields.filter { $0.0 != "scope" })
            let code = try #require(answer.json["authorization_code"] as? String, "\(answer.json)")
            let tokens = try await FirstPartyFixture.redeem(client, code: code)
            #expect(tokens.status == .ok)
            #expect(tokens.json["scope"] as? String == "profile wopi")
            #expect(tokens.json["id_token"] == nil)
            #expect(tokens.json["auth_session"] == nil)
            let openID = try await FirstPartyFixture.tokens(client, scope: "openid")
            #expect(openID.json["id_token"] != nil)
            #expect(openID.json["auth_session"] != nil)
        }
    }

    @Test func aStepUpSessionNeverOutlivesTheRefreshTokenBesideIt() async throws {
        let seal = StepUpSessionSeal(signingKeys: try await SigningKeySet.generate())
        #expect(StepUpIssuance(seal: seal, configured: 604_800, refreshTokenLifetime: 3600).lifetime == 3600)
        #expect(StepUpIssuance(seal: seal, configured: 604_800, refreshTokenLifetime: nil).lifetime == 604_800)
        #expect(StepUpIssuance(seal: seal, configured: 600, refreshTokenLifetime: 7_776_000).lifetime == 600)
    }
}
