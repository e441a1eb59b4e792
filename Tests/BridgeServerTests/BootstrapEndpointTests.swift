import BridgeServer
import BridgeStore
import BridgeStoreSQLite
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// `/wopibootstrapper` over a real socket (HummingbirdTesting `.live`), as Microsoft's Office app-to-app docs describes it.
@Suite("Bootstrap endpoint")
struct BootstrapEndpointTests {
    /// Written out by hand from the configuration in `TestBridge.yaml`, not computed.
    static let expectedChallenge =
        #"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="TPCONTOSO",UrlSchemes="%7B%22iOS%22%3A%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%22Android%22%3A%5B%227%22%2C%22com.c%22%2C%22com.c.A%22%5D%7D""#

    /// `refusedToken`: the request carried a bearer token that was refused, so RFC 6750 §3.1's `error="invalid_token"`
    /// follows the same challenge; without a usable credential there is no error code.
    static func expectChallenge(_ response: TestResponse, _ comment: Comment? = nil, refusedToken: Bool = false) {
        #expect(response.status == .unauthorized, comment)
        let expected = refusedToken ? expectedChallenge + #",error="invalid_token""# : expectedChallenge
        #expect(response.headers[values: .wwwAuthenticate] == [expected], comment)
        #expect(response.body.readableBytes == 0, comment)
        #expect(response.headers[.cacheControl] == "no-store", comment)
        #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", comment)
    }

    @Test func unauthenticatedGetAndPostGetExactlyTheConfiguredChallenge() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            for method in [HTTPRequest.Method.get, .post] {
                try await client.execute(uri: "/wopibootstrapper", method: method) { response in
                    Self.expectChallenge(response, "\(method)")
                    let parsed = try BootstrapChallenge.parse(headerValues: response.headers[values: .wwwAuthenticate])
                    #expect(parsed.providerId == "TPCONTOSO")
                    #expect(response.headers[.strictTransportSecurity] != nil)
                }
            }
        }
    }

    @Test func additionalChallengesSitBesideTheOneBearerChallenge() async throws {
        let bridge = try await TestBridge.make(.testBridge.setting("office.additionalChallenges", to: [#"Basic realm="files""#]))
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .get) { response in
                let values = response.headers[values: .wwwAuthenticate]
                #expect(values == [Self.expectedChallenge, #"Basic realm="files""#])
                #expect(values.filter { $0.lowercased().hasPrefix("bearer") }.count == 1)
                _ = try BootstrapChallenge.parse(headerValues: values)
            }
        }
    }

    @Test func anyUnusableAuthorizationGetsTheChallenge() async throws {
        let bridge = try await TestBridge.make()
        let valid = try await bridge.issueToken().token
        let other = try await TestBridge.make()
        let foreign = try await other.issueToken().token  // signed by another server's key
        try await other.store.close()
        let revoked = try await bridge.issueToken()
        _ = try await bridge.store.revokeAccessToken(tokenID: revoked.tokenID, at: bridge.clock.now)
        let tampered = String(valid.dropLast(2)) + (valid.hasSuffix("AA") ? "BB" : "AA")
        let values = [
            "", "   ", "Bearer", "Bearer ", "Bearer:", "Basic YWxpY2U6c2VjcmV0", "Bearer a b", "Bearer ☃",
            "Bearerabc", "Bearer not.a.jwt", "Bearer \(foreign)", "Bearer \(tampered)", "Bearer \(revoked.token)",
            "Bearer " + String(repeating: "a", count: 9000),
        ]
        // A well-formed bearer token that is refused; the others carry no usable credential at all.
        let refused: Set = ["Bearer not.a.jwt", "Bearer \(foreign)", "Bearer \(tampered)", "Bearer \(revoked.token)"]
        try await bridge.app.makeApplication().test(.live) { client in
            for value in values {
                try await client.execute(
                    uri: "/wopibootstrapper", method: .get, headers: [.authorization: value]
                ) { response in
                    if value.utf8.count > bridge.configuration.limits.maxHeaderValueBytes {
                        #expect(response.status.code == 431)
                    } else {
                        Self.expectChallenge(
                            response, "Authorization: \(value.prefix(40))", refusedToken: refused.contains(value))
                        // Office reads the refused token's answer as it reads the plain one.
                        _ = try BootstrapChallenge.parse(headerValues: response.headers[values: .wwwAuthenticate])
                    }
                }
            }
        }
    }

    @Test func expiredTokenGetsTheChallengeWithInvalidToken() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        bridge.clock.advance(by: TimeInterval(bridge.configuration.tokens.accessTokenLifetimeSeconds))
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                Self.expectChallenge($0, refusedToken: true)
            }
        }
    }

    @Test(arguments: ["Bearer ", "Bearer: ", "bearer  ", "Bearer:"])
    func authenticatedGetAnswersTheUsersBootstrap(prefix: String) async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(
                uri: "/wopibootstrapper", method: .get, headers: [.authorization: prefix + token]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "no-store")
                let body = try BootstrapResponse.decode(Data(buffer: response.body))
                #expect(body.bootstrap.userId == "alice")
                #expect(body.bootstrap.signInName == "alice@contoso.com")
                #expect(body.bootstrap.userFriendlyName == "Alice")
                #expect(body.accessTokenInfo == nil && body.rootContainerInfo == nil)
                // The ecosystem URL carries a fresh WOPI access token that a host's WOPI endpoint accepts.
                let url = try #require(URLComponents(string: body.bootstrap.ecosystemURL))
                #expect(url.path == "/wopi/ecosystem")
                let wopiToken = try #require(url.queryItems?.first { $0.name == "access_token" }?.value)
                let verified = try await bridge.app.wopiAccessTokenVerifier.verify(wopiToken, for: nil, at: bridge.clock.now)
                #expect(verified.grant.userID == "alice")
                #expect(verified.claims.wopiSource == nil)
            }
        }
    }

    @Test func newAccessTokenForAServedWopiSrcHasItsExpiryInMilliseconds() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        let wopiSrc = "https://contoso.com/wopi/files/42"
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(
                uri: "/wopibootstrapper", method: .post,
                headers: [
                    .authorization: "Bearer \(token)", HTTPField.Name("X-WOPI-EcosystemOperation")!: "GET_NEW_ACCESS_TOKEN",
                    HTTPField.Name("X-WOPI-WopiSrc")!: wopiSrc,
                ]
            ) { response in
                #expect(response.status == .ok)
                let body = try BootstrapResponse.decode(Data(buffer: response.body))
                let info = try #require(body.accessTokenInfo)
                // 1_800_000_000 s plus the configured 3600 s, in milliseconds since the epoch.
                #expect(info.accessTokenExpiry == 1_800_003_600_000)
                #expect(String(buffer: response.body).contains(#""AccessTokenExpiry":1800003600000"#))
                let verifier = bridge.app.wopiAccessTokenVerifier
                let verified = try await verifier.verify(info.accessToken, for: wopiSrc, at: bridge.clock.now)
                #expect(verified.claims.wopiSource == wopiSrc)
                #expect(verified.claims.expiresAt == Date(timeIntervalSince1970: 1_800_003_600))
                await #expect(throws: WopiAccessTokenVerifier.Rejection.wrongResource) {
                    try await verifier.verify(info.accessToken, for: "https://contoso.com/wopi/files/43", at: bridge.clock.now)
                }
            }
        }
    }

    @Test(arguments: [
        nil, "", "https://contoso.com/wopi/files", "https://contoso.com/wopi/files-other/1",
        "https://contoso.com.evil.test/wopi/files/1", "http://contoso.com/wopi/files/1",
        "https://contoso.com:8443/wopi/files/1", "https://contoso.com/wopi/files/../admin", "not a url",
        // Found by scripts/test/hostile.py: encoded dot segments, slashes and NUL were accepted.
        "https://contoso.com/wopi/files/%2e%2e/admin", "https://contoso.com/wopi/files/%2E./x",
        "https://contoso.com/wopi/files/a%2f..%2fb", "https://contoso.com/wopi/files/1%00.txt",
        "https://contoso.com/wopi/files/%5c..%5cadmin",
    ])
    func newAccessTokenForAForeignWopiSrcIsNotFound(wopiSrc: String?) async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        var headers: HTTPFields = [
            .authorization: "Bearer \(token)", HTTPField.Name("X-WOPI-EcosystemOperation")!: "GET_NEW_ACCESS_TOKEN",
        ]
        if let wopiSrc { headers[HTTPField.Name("X-WOPI-WopiSrc")!] = wopiSrc }
        let request = headers
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .post, headers: request) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func rootContainerAndUnknownOperations() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        let operation = HTTPField.Name("X-WOPI-EcosystemOperation")!
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(
                uri: "/wopibootstrapper", method: .post, headers: [.authorization: "Bearer \(token)", operation: "GET_ROOT_CONTAINER"]
            ) { response in
                #expect(response.status == .ok)
                let root = try #require(try BootstrapResponse.decode(Data(buffer: response.body)).rootContainerInfo)
                #expect(root.containerPointer.name == "My files")
                #expect(root.containerPointer.url.hasPrefix("https://contoso.com/wopi/containers/root?access_token="))
                #expect(root.containerInfo.name == "My files")
            }
            for unknown in ["SOMETHING_NEW", "", "GET_WOPI_SRC_WITH_ACCESS_TOKEN"] {
                try await client.execute(
                    uri: "/wopibootstrapper", method: .post, headers: [.authorization: "Bearer \(token)", operation: unknown]
                ) { response in
                    #expect(response.status == .ok)
                    let body = try BootstrapResponse.decode(Data(buffer: response.body))
                    #expect(body.accessTokenInfo == nil && body.rootContainerInfo == nil)
                }
            }
        }
    }

    @Test func sessionContextIsRecordedWithTheGrant() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let header = HTTPField.Name("X-WOPI-SessionContext")!
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(
                uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(issued.token)", header: "sc-xyz"]
            ) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/wopibootstrapper", method: .get,
                headers: [.authorization: "Bearer \(issued.token)", header: String(repeating: "x", count: 2000)]
            ) { #expect($0.status == .badRequest) }
        }
        let reopened = try await SQLiteStore.open(path: bridge.configuration.store.sqlite.path)
        #expect(try await reopened.grant(id: issued.grantID)?.sessionContext == "sc-xyz")
        try await reopened.close()
    }

    @Test func restartWithTheSameFilesKeepsIssuedTokensValid() async throws {
        let first = try await TestBridge.make()
        let token = try await first.issueToken().token
        try await first.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
        }
        // The first application closed its store on shutdown; a new process opens the same database and key file.
        await #expect(throws: StoreError.closed) { try await first.store.checkHealth() }
        let second = try await TestBridge.make(directory: first.directory, clock: first.clock)
        try await second.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
        }
    }
}
