@testable import BridgeServer
import BridgeStore
import Foundation
import SignInProtocol
import Testing

/// OpenID Connect Native SSO for Mobile Apps 1.0 draft 07: `ds_hash` and the exchange's checks that need no store
/// (the store's are `DeviceSSOContract`, the whole flow over the wire scripts/test/native_sso.py).
@Suite("Native SSO (draft 07)")
struct NativeSSOChecksTests {
    static let issuer = "https://bridge.example.com"

    static func code(of body: () throws(OAuthError) -> Void) -> String? {
        do throws(OAuthError) { try body(); return nil } catch { return error.code.rawValue }
    }

    static func exchange(
        subjectType: String = NativeSSO.idTokenType, actor: String? = "secret", actorType: String? = NativeSSO.deviceSecretType,
        requested: String? = nil, audiences: [String] = [], resources: [String] = []
    ) -> TokenRequest.TokenExchange {
        TokenRequest.TokenExchange(
            subjectToken: "id.token.here", subjectTokenType: subjectType, actorToken: actor, actorTokenType: actorType,
            requestedTokenType: requested, resources: resources, audiences: audiences)
    }

    static func claims(sid: String? = "sid-1", dsHash: String?) -> IDTokenClaims {
        IDTokenClaims(
            iss: issuer, sub: "alice", aud: "app-a", azp: "app-a", exp: 2_000_000_000, iat: 1_900_000_000, sid: sid,
            ds_hash: dsHash)
    }

    /// §3.4.1 leaves the binding to the AS; ours is at_hash's construction (OpenID Connect Core §3.1.3.6). The
    /// expected values were computed with Python's hashlib (base64url of the first 16 bytes of SHA-256), not by
    /// this code.
    @Test func section3_4_1_dsHashIsTheLeftHalfOfSHA256Base64url() {
        #expect(NativeSSO.dsHash(of: "WGs_wEJvlYfu4wHt9ukYcGw9Lt2cIgh6RDDfOAAAG0o") == "gtEjmt9NdhHaaVYMDRcn3g")
        #expect(NativeSSO.dsHash(of: "jHkWEdUXMU1BwAsC4vtUsZwnHtV0CuHyL_zWm") == "nuCqt92vJwhDP2iBt11NZg")
        #expect(NativeSSO.dsHash(of: "a") != NativeSSO.dsHash(of: "b"))
    }

    @Test func section3_1_deviceSSOIsAScopeValue() {
        #expect(NativeSSO.isGranted(in: "openid device_sso"))
        #expect(!NativeSSO.isGranted(in: "openid device_ssox"))
        #expect(!NativeSSO.isGranted(in: ""))
    }

    @Test func section4_1_theRequestNeedsAnIDTokenAndADeviceSecret() {
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(), issuer: Self.issuer) } == nil)
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(audiences: [Self.issuer]), issuer: Self.issuer) } == nil)
        let accessTokenType = TokenExchangeGrant.accessTokenType
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(subjectType: accessTokenType), issuer: Self.issuer) } == "invalid_request")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(actor: nil), issuer: Self.issuer) } == "invalid_request")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(actor: ""), issuer: Self.issuer) } == "invalid_request")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(Self.exchange(actorType: accessTokenType), issuer: Self.issuer) } == "invalid_request")
        let idTokenRequested = Self.exchange(requested: NativeSSO.idTokenType)
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(idTokenRequested, issuer: Self.issuer) } == "invalid_request")
        let elsewhere = Self.exchange(audiences: ["https://elsewhere.example"])
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(elsewhere, issuer: Self.issuer) } == "invalid_target")
        let resource = Self.exchange(resources: ["https://api.example"])
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkRequest(resource, issuer: Self.issuer) } == "invalid_target")
    }

    @Test func section4_3_theIDTokensDsHashMustNameThePresentedSecret() throws {
        let secret = SecretToken().value
        let binding = try NativeSSOChecks.checkBinding(Self.claims(dsHash: NativeSSO.dsHash(of: secret)), deviceSecret: secret)
        #expect(binding == DeviceSessionBinding(sid: "sid-1", dsHash: NativeSSO.dsHash(of: secret)))
        let another = SecretToken().value
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkBinding(Self.claims(dsHash: NativeSSO.dsHash(of: another)), deviceSecret: secret) } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkBinding(Self.claims(dsHash: nil), deviceSecret: secret) } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkBinding(Self.claims(sid: nil, dsHash: NativeSSO.dsHash(of: secret)), deviceSecret: secret) } == "invalid_grant")
    }

    @Test func section4_3_theStoresRefusalsAreInvalidGrantAndAWiderScopeInvalidScope() {
        let session = DeviceSessionRecord(
            digest: SecretToken().digest, sid: "sid-1", userID: "alice", clientID: "app-a", group: "g", scope: "openid device_sso",
            authTime: nil, createdAt: Date(timeIntervalSince1970: 0), expiresAt: Date(timeIntervalSince1970: 60))
        let wider = DeviceSessionClaim(sid: "sid-1", userID: "alice", group: "g", scope: "openid email")
        let otherGroup = DeviceSessionClaim(sid: "sid-1", userID: "alice", group: "h", scope: "openid")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkExchanged(.mismatch(session), claim: wider) } == "invalid_scope")
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkExchanged(.mismatch(session), claim: otherGroup) } == "invalid_grant")
        for outcome in [DeviceSecretExchange.ended, .expired, .unknown] {
            #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkExchanged(outcome, claim: otherGroup) } == "invalid_grant")
        }
        #expect(Self.code { () throws(OAuthError) in _ = try NativeSSOChecks.checkExchanged(.exchanged(session), claim: wider) } == nil)
    }

    @Test func aDeviceSecretIs256BitsAndOnlyForAClientWithAGroup() throws {
        let configuration = TokenChecksTests.configuration
        var client = try #require(configuration.clients.first)
        client.ssoGroup = nil
        #expect(DeviceSecretDraft(client: client, lifetime: 60, at: Date(timeIntervalSince1970: 0)) == nil)
        client.ssoGroup = "example-merchant"
        let draft = try #require(DeviceSecretDraft(client: client, lifetime: 60, at: Date(timeIntervalSince1970: 0)))
        #expect(Base64URL.decode(draft.secret.value)?.count == 32)
        #expect(draft.binding.dsHash == NativeSSO.dsHash(of: draft.secret.value))
        let stored = draft.stored
        #expect(stored.digest == draft.secret.digest && stored.group == "example-merchant" && stored.sid == draft.sid)
        #expect(stored.clientID == client.id && stored.requiredScope == ["openid", "device_sso"])
        #expect(stored.expiresAt == Date(timeIntervalSince1970: 60))
    }
}
