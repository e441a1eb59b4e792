import BridgeStore
import Foundation
import SignInProtocol
import Testing

@testable import BridgeServer

/// The members a code redemption's response carries besides its tokens: one contributor each, in the order they
/// apply, and each one's condition from its specification.
@Suite("Token response contributors")
struct TokenResponseContributorsTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)

    static func dependencies(stepUp: Bool = true, idTokens: Bool = true) async throws -> ContributorDependencies {
        let keys = try await SigningKeySet.generate()
        return ContributorDependencies(
            idTokens: idTokens ? IDTokenIssuer(keys: keys, issuer: "https://contoso.com", lifetime: 3_600) : nil,
            deviceSecretLifetime: 600,
            stepUp: stepUp
                ? StepUpIssuance(seal: StepUpSessionSeal(signingKeys: keys), configured: 600, refreshTokenLifetime: nil)
                : nil)
    }

    /// A client of an SSO group, first-party unless told.
    static func client(firstParty: Bool = true, ssoGroup: String? = "example-merchant") throws -> AuthenticatedClient {
        var client = try #require(TokenChecksTests.configuration.clients.first)
        client.firstParty = firstParty
        client.ssoGroup = ssoGroup
        return AuthenticatedClient(client: client, method: "none")
    }

    /// The response `contributors` build for a code granted `scope` to `client`, with the drafts they made.
    static func response(
        _ contributors: TokenResponseContributors, scope: String, client: AuthenticatedClient
    ) throws -> (TokenResponse, RedemptionDrafts) {
        let drafts = contributors.drafts(for: client, at: now)
        let grant = GrantRecord(userID: "alice", clientID: client.id, scope: scope, createdAt: now)
        let code = AuthorizationCodeRecord(
            digest: SecretToken().digest, grantID: grant.id, clientID: client.id, redirectURI: "https://app.example/cb",
            scope: scope, issuedAt: now, expiresAt: now.addingTimeInterval(60), nonce: "n-1", authTime: now)
        let redeemed = RedeemedCode(
            code: code, grant: grant, client: client, proof: nil, accessToken: "header.payload.signature",
            drafts: drafts, now: now)
        let response = try contributors.response(TokenResponse(accessToken: "header.payload.signature"), for: redeemed)
        return (response, drafts)
    }

    static func members(_ response: TokenResponse) -> Set<String> { Set(response.additionalFields.keys) }

    @Test func theContributorsApplyInOrderTheDeviceSecretBeforeTheIDTokenThatNamesIt() async throws {
        #expect(
            TokenResponseContributors.contributorTypes.map { String(describing: $0) } == [
                "DeviceSecretContributor", "IDTokenContributor", "StepUpSessionContributor",
            ])
        let all = TokenResponseContributors(try await Self.dependencies())
        #expect(all.contributors.map { String(describing: type(of: $0)) } == [
            "DeviceSecretContributor", "IDTokenContributor", "StepUpSessionContributor",
        ])
        // Every conforming type in the sources is on the list.
        #expect(
            Set(TokenResponseContributors.contributorTypes.map { String(describing: $0) })
                == (try AuthorizeRegistryTests.conformers(of: "TokenResponseContributor")))
        try AuthorizeRegistryTests.expectOwnTests(TokenResponseContributors.contributorTypes.map { String(describing: $0) })
    }

    @Test func aContributorIsOffWhenItsFeatureIs() async throws {
        let noStepUp = TokenResponseContributors(try await Self.dependencies(stepUp: false))
        #expect(noStepUp.contributors.map { String(describing: type(of: $0)) } == ["DeviceSecretContributor", "IDTokenContributor"])
        // Without OpenID Connect there is no ID token, and no device secret to bind to one.
        let noOpenID = TokenResponseContributors(try await Self.dependencies(idTokens: false))
        #expect(noOpenID.contributors.map { String(describing: type(of: $0)) } == ["StepUpSessionContributor"])
        let (response, drafts) = try Self.response(noOpenID, scope: "openid device_sso", client: try Self.client())
        #expect(Self.members(response) == ["auth_session"])
        #expect(drafts.writes == .none)
    }

    @Test func deviceSecretContributorNeedsDeviceSSOAndOpenIDGrantedToAClientOfAGroup() async throws {
        let contributors = TokenResponseContributors(try await Self.dependencies(stepUp: false))
        let (withSSO, drafts) = try Self.response(contributors, scope: "openid device_sso", client: try Self.client())
        #expect(Self.members(withSSO) == ["id_token", "device_secret"])
        let device = try #require(drafts.deviceSecret)
        #expect(withSSO.additionalFields["device_secret"] == .string(device.secret.value))
        #expect(drafts.writes.deviceSession == device.stored)
        // The ID token names the session of the secret beside it (draft 07 §3.4.1).
        guard case .string(let idToken) = withSSO.additionalFields["id_token"] else {
            Issue.record("no id_token")
            return
        }
        let claims = try #require(await contributors.idTokensForTest?.verifiedHint(idToken))
        #expect(claims.sid == device.sid && claims.ds_hash == NativeSSO.dsHash(of: device.secret.value))

        // No device_sso granted: no device secret, and the session drafted for it is not written.
        let (withoutSSO, draftsWithout) = try Self.response(contributors, scope: "openid", client: try Self.client())
        #expect(Self.members(withoutSSO) == ["id_token"])
        let unwritten = try #require(draftsWithout.writes.deviceSession)
        #expect(!unwritten.isWritten(
            for: AuthorizationCodeRecord(
                digest: SecretToken().digest, grantID: GrantID("g"), clientID: unwritten.clientID, redirectURI: "x",
                scope: "openid", issuedAt: Self.now, expiresAt: Self.now)))
        // device_sso without openid: nothing of OpenID at all.
        #expect(Self.members(try Self.response(contributors, scope: "device_sso", client: try Self.client()).0).isEmpty)
        // A client without an SSO group drafts no session and gets no secret.
        let (ungrouped, ungroupedDrafts) = try Self.response(
            contributors, scope: "openid device_sso", client: try Self.client(ssoGroup: nil))
        #expect(Self.members(ungrouped) == ["id_token"])
        #expect(ungroupedDrafts.writes == .none)
    }

    @Test func iDTokenContributorNeedsOpenIDGranted() async throws {
        let contributors = TokenResponseContributors(try await Self.dependencies(stepUp: false))
        #expect(Self.members(try Self.response(contributors, scope: "wopi", client: try Self.client()).0).isEmpty)
        let (response, _) = try Self.response(contributors, scope: "openid wopi", client: try Self.client())
        #expect(Self.members(response) == ["id_token"])
        guard case .string(let idToken) = response.additionalFields["id_token"] else { return }
        let claims = try #require(await contributors.idTokensForTest?.verifiedHint(idToken))
        // OpenID Connect Core §3.1.3.6 and §2: at_hash of this response's access token, the request's nonce.
        #expect(claims.sub == "alice" && claims.nonce == "n-1" && claims.sid == nil)
        #expect(claims.at_hash == IDTokenIssuer.atHash("header.payload.signature"))
    }

    @Test func stepUpSessionContributorNeedsAFirstPartyClientAndOpenID() async throws {
        let contributors = TokenResponseContributors(try await Self.dependencies())
        let firstParty = try Self.response(contributors, scope: "openid", client: try Self.client(ssoGroup: nil)).0
        #expect(Self.members(firstParty) == ["id_token", "auth_session"])
        let other = try Self.response(contributors, scope: "openid", client: try Self.client(firstParty: false, ssoGroup: nil)).0
        #expect(Self.members(other) == ["id_token"])
        // A plain OAuth request never asked to restore a sign-in (first-party-apps-04 §6.1).
        #expect(Self.members(try Self.response(contributors, scope: "wopi", client: try Self.client(ssoGroup: nil)).0).isEmpty)
    }
}

extension TokenResponseContributors {
    /// The ID token issuer of this registry's ID token contributor, to read back what it signed.
    var idTokensForTest: IDTokenIssuer? {
        contributors.lazy.compactMap { ($0 as? IDTokenContributor)?.idTokens }.first
    }
}
