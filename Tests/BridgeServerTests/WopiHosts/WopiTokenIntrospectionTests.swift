@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// RFC 7662 introspection of WOPI access tokens: reported only to a client with `wopiServer` (docs/wopi-hosts.md).
@Suite("WOPI token introspection")
struct WopiTokenIntrospectionTests {
    static let wopiHost = ("wopi-host", "wopi-host-secret")
    static let office = ("office", "office-demo-secret")
    static let configuration = ConfigurationBuilder.testBridge.addingClient("""
        id: wopi-host
        secretHash: sha256:cd124f5f341cd26603de50de6932efa0a173b1c46473d133f7238bff18840b2e
        wopiServer: true
        redirectUris: [https://wopi-host.example/unused]
        grants: [client_credentials]
        """)

    @Test func theWopiServersClientLearnsTheTokensUserTimesAndFile() async throws {
        let bridge = try await TestBridge.make(Self.configuration)
        let (file, grant) = try await WopiForwardAuthTests.token(bridge)
        let ecosystem = try await WopiForwardAuthTests.token(bridge, for: nil).token
        try await bridge.app.makeApplication().test(.live) { client in
            let active = try await client.postForm("/oauth2/introspect", ["token": file], basic: Self.wopiHost)
            #expect(active.status == .ok)
            #expect(active.json["active"] as? Bool == true)
            #expect(active.json["sub"] as? String == "alice")
            #expect(active.json["username"] as? String == "alice@contoso.com")
            #expect(active.json["client_id"] as? String == "office")
            #expect(active.json["token_type"] as? String == "Bearer")
            #expect(active.json["wopi_src"] as? String == WopiForwardAuthTests.file)
            #expect(active.json["iat"] as? Int == 1_800_000_000)
            #expect(active.json["exp"] as? Int == 1_800_000_600)
            let forEcosystem = try await client.postForm("/oauth2/introspect", ["token": ecosystem], basic: Self.wopiHost)
            #expect(forEcosystem.json["active"] as? Bool == true)
            #expect(forEcosystem.json["wopi_src"] == nil)

            // A client without the permission learns nothing, not even that the token would verify (RFC 7662 §4).
            let withoutPermission = try await client.postForm("/oauth2/introspect", ["token": file], basic: Self.office)
            #expect(withoutPermission.status == .ok)
            #expect(withoutPermission.json.keys.sorted() == ["active"])
            #expect(withoutPermission.json["active"] as? Bool == false)

            for token in [WopiForwardAuthTests.forged(file), "w1.AAAAAAAA.AAAA.AAAA", "w1..."] {
                let refused = try await client.postForm("/oauth2/introspect", ["token": token], basic: Self.wopiHost)
                #expect(refused.json.keys.sorted() == ["active"])
            }
            #expect(try await bridge.store.revokeGrant(grant, at: bridge.clock.now))
            let revoked = try await client.postForm("/oauth2/introspect", ["token": file], basic: Self.wopiHost)
            #expect(revoked.json.keys.sorted() == ["active"])
            bridge.clock.advance(by: 600)
            let expired = try await client.postForm("/oauth2/introspect", ["token": ecosystem], basic: Self.wopiHost)
            #expect(expired.json.keys.sorted() == ["active"])
        }
        try await bridge.store.close()
    }

    @Test func aStoreOutageIsTemporarilyUnavailableNeverActive() async throws {
        let bridge = try await TestBridge.make(Self.configuration)
        let unread = try await WopiForwardAuthTests.token(bridge).token
        let request = OAuthFormRequest(
            body: FormParameters(["token": unread]).encoded,
            authorization: ClientAuthentication(clientID: "wopi-host", clientSecret: "wopi-host-secret", method: .httpBasic)
                .basicAuthorizationHeader)
        try await bridge.store.close()
        await #expect(throws: OAuthError.storeUnavailable) { try await bridge.app.services.introspection.respond(to: request) }
    }

    @Test func aPublicClientMayNotBeAWopiServer() throws {
        let publicServer = ConfigurationBuilder.testBridge.addingClient(
            "{id: app, public: true, wopiServer: true, redirectUris: [com.example:/cb], grants: [authorization_code]}")
        let problems = ConfigurationTests.problems(try publicServer.yaml())
        #expect(problems.contains { $0.keyPath == "clients[1].wopiServer" }, "\(problems)")
    }
}
