@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import SignInProtocol
import Testing

/// A host identity provider on a loopback socket: discovery, JWKS and UserInfo, with a switch that takes it down.
final class FakeIdentityProvider: Sendable {
    let jws = TestJWS()
    let down = NIOLockedValueBox(false)
    let jwksFetches = NIOLockedValueBox(0)
    let introspections = NIOLockedValueBox(0)
    /// An opaque token introspection calls active (RFC 7662 §2.2), for `sub` `opaque-user`.
    static let activeOpaqueToken = "2YotnFZFEjr1zCsicMWpAA"

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.get("/.well-known/openid-configuration") { request, _ -> Response in
            let origin = "http://" + (request.head.authority ?? "")
            return Self.json(
                #"{"issuer":"\#(origin)","authorization_endpoint":"\#(origin)/authorize","token_endpoint":"\#(origin)/token","#
                    + #""jwks_uri":"\#(origin)/jwks","userinfo_endpoint":"\#(origin)/userinfo","#
                    + #""introspection_endpoint":"\#(origin)/introspect"}"#)
        }
        router.post("/introspect") { request, _ -> Response in
            self.introspections.withLockedValue { $0 += 1 }
            let basic = "Basic " + Data("signin-bridge:s3cret".utf8).base64EncodedString()
            guard request.headers[.authorization] == basic else { return Response(status: .unauthorized) }
            let form = String(buffer: try await request.body.collect(upTo: 4096))
            let origin = "http://" + (request.head.authority ?? "")
            guard form.contains("token=\(Self.activeOpaqueToken)") else { return Self.json(#"{"active":false}"#) }
            return Self.json(
                #"{"active":true,"sub":"opaque-user","username":"opaque@host.example","scope":"wopi","iss":"\#(origin)","exp":1800000600}"#)
        }
        router.get("/jwks") { _, _ -> Response in
            if self.down.withLockedValue({ $0 }) { return Response(status: .serviceUnavailable) }
            self.jwksFetches.withLockedValue { $0 += 1 }
            return Self.json(self.jws.jwks)
        }
        router.get("/userinfo") { _, _ -> Response in
            Self.json(#"{"sub":"user-without-names","preferred_username":"bob@host.example","name":"Bob"}"#)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `/wopibootstrapper` in front of the host's provider, over real sockets on both sides.
struct ExternalBootstrapTests {
    static let wopiSrc = "https://contoso.com/wopi/files/42"

    static func bridge(providerPort: Int) async throws -> TestBridge {
        let origin = "http://127.0.0.1:\(providerPort)"
        return try await TestBridge.make(yaml: TestBridge.yaml + """

            identityProvider:
              issuer: \(origin)
              audience: signin-bridge
              requiredScope: wopi
              allowInsecureHTTP: true
              authorizationEndpoint: \(origin)/authorize
              tokenEndpoint: \(origin)/token
            """)
    }

    static func token(_ provider: FakeIdentityProvider, _ bridge: TestBridge, port: Int, sub: String = "user-1", lifetime: Int = 300) -> String {
        let now = Int(bridge.clock.now.timeIntervalSince1970)
        return provider.jws.sign(claims: """
            {"iss":"http://127.0.0.1:\(port)","aud":"signin-bridge","sub":"\(sub)","scope":"openid wopi","iat":\(now),"exp":\(now + lifetime)\(
                sub == "user-1" ? #","preferred_username":"alice@host.example","name":"Alice Host""# : "")}
            """)
    }

    static func bootstrap(_ client: some TestClientProtocol, _ token: String, operation: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if let operation {
            headers[HTTPField.Name("X-WOPI-EcosystemOperation")!] = operation
            headers[HTTPField.Name("X-WOPI-WopiSrc")!] = wopiSrc
        }
        return try await client.execute(uri: "/wopibootstrapper", method: operation == nil ? .get : .post, headers: headers)
    }

    @Test func anExternalTokenBootstrapsTheMappedUserAndIsRememberedAfter() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            let token = Self.token(provider, bridge, port: port)
            try await bridge.app.makeApplication().test(.live) { client in
                let first = try await Self.bootstrap(client, token)
                #expect(first.status == .ok)
                let body = try BootstrapResponse.decode(Data(buffer: first.body))
                #expect(body.bootstrap.userId == "user-1")
                #expect(body.bootstrap.signInName == "alice@host.example")
                #expect(body.bootstrap.userFriendlyName == "Alice Host")
                // The second bootstrap is the remembered answer: no JWKS fetch, no signature check.
                #expect(try await Self.bootstrap(client, token).status == .ok)
                #expect(provider.jwksFetches.withLockedValue { $0 } == 1)
                #expect(bridge.app.services.bootstrap.rememberedBootstrap(
                    to: BootstrapRequest(authorization: "Bearer \(token)", isPost: false), at: bridge.clock.now)?.bootstrap.userId == "user-1")

                let renewed = try await Self.bootstrap(client, token, operation: "GET_NEW_ACCESS_TOKEN")
                #expect(renewed.status == .ok)
                let info = try #require(try BootstrapResponse.decode(Data(buffer: renewed.body)).accessTokenInfo)
                // Bounded by the provider's token: exp (300 s) plus the 60 s leeway, not the configured 3600 s.
                #expect(info.accessTokenExpiry == 1_800_000_360_000)
                let verified = try await bridge.app.wopiAccessTokenVerifier.verify(info.accessToken, for: Self.wopiSrc, at: bridge.clock.now)
                #expect(verified.user.id == "user-1")
                #expect(verified.user.signInName == "alice@host.example")
                #expect(verified.grant.clientID == ExternalGrant.clientID)
                let root = try await Self.bootstrap(client, token, operation: "GET_ROOT_CONTAINER")
                #expect(try BootstrapResponse.decode(Data(buffer: root.body)).rootContainerInfo != nil)

                try await client.execute(uri: "/health/ready", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body).contains(#""identityProviderKeys":"ok""#))
                }
                bridge.clock.advance(by: 400)
                await #expect(throws: WopiAccessTokenVerifier.Rejection.expired) {
                    try await bridge.app.wopiAccessTokenVerifier.verify(info.accessToken, for: Self.wopiSrc, at: bridge.clock.now)
                }
                let expired = try await Self.bootstrap(client, token)
                #expect(expired.status == .unauthorized)
                #expect(expired.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            }
        }
    }

    @Test func refusedTokensAreInvalidTokenAndTheChallengeNamesTheProvider() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            let forger = FakeIdentityProvider()
            try await bridge.app.makeApplication().test(.live) { client in
                try await client.execute(uri: "/wopibootstrapper", method: .get) { response in
                    #expect(response.status == .unauthorized)
                    let challenge = response.headers[.wwwAuthenticate] ?? ""
                    #expect(challenge.contains(#"authorization_uri="http://127.0.0.1:\#(port)/authorize""#))
                    #expect(challenge.contains(#"tokenIssuance_uri="http://127.0.0.1:\#(port)/token""#))
                    #expect(challenge.contains("providerId=\"TPCONTOSO\""))
                }
                // Same kid, another key: the signature does not verify.
                for token in [Self.token(forger, bridge, port: port), Self.token(provider, bridge, port: port, lifetime: -120), "not-a-jwt"] {
                    let response = try await Self.bootstrap(client, token)
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                }
            }
        }
    }

    @Test func userInfoFillsTheNamesATokenLacks() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            let token = Self.token(provider, bridge, port: port, sub: "user-without-names")
            try await bridge.app.makeApplication().test(.live) { client in
                let response = try await Self.bootstrap(client, token)
                let body = try BootstrapResponse.decode(Data(buffer: response.body))
                #expect(body.bootstrap.signInName == "bob@host.example")
                #expect(body.bootstrap.userFriendlyName == "Bob")
            }
        }
    }

    @Test func aProviderWhoseKeysCannotBeHadIs503AndNotReady() async throws {
        let provider = FakeIdentityProvider()
        provider.down.withLockedValue { $0 = true }
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            try await bridge.app.makeApplication().test(.live) { client in
                let response = try await Self.bootstrap(client, Self.token(provider, bridge, port: port))
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] != nil)
                #expect(String(buffer: response.body).contains("temporarily_unavailable"))
                try await client.execute(uri: "/health/ready", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body).contains("identityProviderKeys"))
                }
            }
        }
    }

    @Test func knownKeysKeepWorkingWhileTheProviderIsDown() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            try await bridge.app.makeApplication().test(.live) { client in
                let loaded = try await Self.bootstrap(client, Self.token(provider, bridge, port: port))
                #expect(loaded.status == .ok)
                provider.down.withLockedValue { $0 = true }
                // A token not seen before, signed with a key already loaded.
                let fresh = try await Self.bootstrap(client, Self.token(provider, bridge, port: port, lifetime: 200))
                #expect(fresh.status == .ok)
            }
        }
    }

    @Test func opaqueTokensAreIntrospectedAndKept() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let configured = try await TestBridge.make(yaml: TestBridge.yaml + """

                identityProvider:
                  issuer: http://127.0.0.1:\(port)
                  requiredScope: wopi
                  allowInsecureHTTP: true
                  authorizationEndpoint: http://127.0.0.1:\(port)/authorize
                  tokenEndpoint: http://127.0.0.1:\(port)/token
                  claims: {signInName: username}
                  introspection: {clientId: signin-bridge, clientSecret: s3cret, cacheSeconds: 60}
                """)
            try await configured.app.makeApplication().test(.live) { client in
                let first = try await Self.bootstrap(client, FakeIdentityProvider.activeOpaqueToken)
                #expect(first.status == .ok)
                let body = try BootstrapResponse.decode(Data(buffer: first.body))
                #expect(body.bootstrap.userId == "opaque-user")
                #expect(body.bootstrap.signInName == "opaque@host.example")
                // Kept for cacheSeconds: the second bootstrap asks nobody.
                #expect(try await Self.bootstrap(client, FakeIdentityProvider.activeOpaqueToken).status == .ok)
                #expect(provider.introspections.withLockedValue { $0 } == 1)
                let inactive = try await Self.bootstrap(client, "tGzv3JOkF0XG5Qx2TlKWIA")
                #expect(inactive.status == .unauthorized)
                #expect(inactive.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                // After cacheSeconds the provider is asked again.
                configured.clock.advance(by: 61)
                #expect(try await Self.bootstrap(client, FakeIdentityProvider.activeOpaqueToken).status == .ok)
                #expect(provider.introspections.withLockedValue { $0 } == 3)
                // The calls and the kept verdicts are on /metrics.
                let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
                #expect(metrics.contains(#"signin_bridge_identity_provider_calls_total{call="introspection",outcome="active"} 2"#), "\(metrics)")
                #expect(metrics.contains(#"signin_bridge_identity_provider_calls_total{call="introspection",outcome="inactive"} 1"#))
                #expect(metrics.contains(#"signin_bridge_identity_provider_verdicts_total{result="kept"} 1"#))
                #expect(metrics.contains(#"signin_bridge_identity_provider_verdicts_total{result="checked"} 3"#))
            }
        }
    }

    @Test func theExternalUsersWopiTokensWorkAtTheEcosystemAndForwardAuth() async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let bridge = try await Self.bridge(providerPort: port)
            let token = Self.token(provider, bridge, port: port)
            try await bridge.app.makeApplication().test(.live) { client in
                // Office's session context is accepted and not recorded: the user has no grant here.
                let plain = try await client.execute(
                    uri: "/wopibootstrapper", method: .get,
                    headers: [.authorization: "Bearer \(token)", HTTPField.Name("X-WOPI-SessionContext")!: "sc-from-the-provider"])
                #expect(plain.status == .ok)
                let ecosystemURL = try BootstrapResponse.decode(Data(buffer: plain.body)).bootstrap.ecosystemURL
                let components = try #require(URLComponents(string: ecosystemURL))
                let ecosystem = try await client.execute(
                    uri: components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? ""), method: .get)
                #expect(ecosystem.status == .ok)
                let renewed = try await Self.bootstrap(client, token, operation: "GET_NEW_ACCESS_TOKEN")
                let file = try #require(try BootstrapResponse.decode(Data(buffer: renewed.body)).accessTokenInfo).accessToken
                let forwarded = try await client.execute(
                    uri: "/wopi/auth", method: .get, headers: [HTTPField.Name("X-Original-URI")!: "/wopi/files/42?access_token=\(file)"])
                #expect(forwarded.status == .ok)
                #expect(forwarded.headers[.wopiUserID] == "user-1")
            }
        }
    }
}
