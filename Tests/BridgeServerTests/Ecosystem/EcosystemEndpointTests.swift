@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// CheckEcosystem and GetRootContainer (Microsoft's "CheckEcosystem" and "GetRootContainer (ecosystem)" pages) over
/// a socket, with the ecosystem tokens the bootstrap hands out.
@Suite("WOPI ecosystem endpoints")
struct EcosystemEndpointTests {
    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any])
    }

    /// A WOPI token for the grant, sealed as the bootstrap seals one (`wopiSource` nil: the ecosystem's).
    static func ecosystemToken(_ bridge: TestBridge, grant: GrantID, wopiSource: String? = nil, lifetime: TimeInterval = 3600) -> String {
        let now = Milliseconds.date(Milliseconds.from(bridge.clock.now))
        return WopiAccessTokenSeal(keys: bridge.app.keys).seal(
            WopiAccessTokenClaims(grantID: grant, wopiSource: wopiSource, issuedAt: now, expiresAt: now.addingTimeInterval(lifetime)))
    }

    /// The path and query of an absolute URL, to send it to the test server.
    static func pathAndQuery(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    @Test func theBootstrapsEcosystemUrlAnswersCheckEcosystem() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        try await bridge.app.makeApplication().test(.live) { client in
            let ecosystemURL = try await client.execute(
                uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(issued.token)"]
            ) { response in
                try #require(Self.json(response.body)["Bootstrap"] as? [String: Any])["EcosystemUrl"] as? String
            }
            let url = try #require(ecosystemURL)
            #expect(url.hasPrefix("https://contoso.com/wopi/ecosystem?access_token=w1."))
            try await client.execute(uri: try Self.pathAndQuery(url), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(String(buffer: response.body) == #"{"SupportsContainers":true}"#)
            }
        }
    }

    @Test func theTokenMayComeInTheAuthorizationHeaderOrBothPlacesAlike() async throws {
        let bridge = try await TestBridge.make()
        let token = Self.ecosystemToken(bridge, grant: try await bridge.issueToken().grantID)
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopi/ecosystem", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
            // Office sends the query parameter and the header with one token.
            try await client.execute(
                uri: "/wopi/ecosystem?access_token=\(token)", method: .get, headers: [.authorization: "Bearer \(token)"]
            ) { #expect($0.status == .ok) }
            let other = Self.ecosystemToken(bridge, grant: try await bridge.issueToken().grantID)
            try await client.execute(
                uri: "/wopi/ecosystem?access_token=\(token)", method: .get, headers: [.authorization: "Bearer \(other)"]
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_request""#) == true)
                #expect(String(buffer: response.body).contains("different tokens"))
            }
        }
    }

    @Test func theRootContainerPointerCarriesAFreshTokenThatOutlivesNeitherItsAskerNorTheLifetime() async throws {
        let bridge = try await TestBridge.make()
        let grant = try await bridge.issueToken().grantID
        let token = Self.ecosystemToken(bridge, grant: grant, lifetime: 600)
        try await bridge.app.makeApplication().test(.live) { client in
            bridge.clock.advance(by: 60)
            try await client.execute(uri: "/wopi/ecosystem/root_container_pointer?access_token=\(token)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                let pointer = try #require(try Self.json(response.body)["ContainerPointer"] as? [String: Any])
                #expect(pointer["Name"] as? String == "My files")
                let url = try #require(pointer["Url"] as? String)
                let prefix = "https://contoso.com/wopi/containers/root?access_token="
                #expect(url.hasPrefix(prefix))
                let fresh = String(url.dropFirst(prefix.count))
                #expect(fresh != token)
                let claims = try WopiAccessTokenSeal(keys: bridge.app.keys).open(fresh)
                #expect(claims.grantID == grant)
                #expect(claims.wopiSource == nil)
                #expect(claims.issuedAt == bridge.clock.now)
                // The asking token had 540 s left; the configured lifetime (3600 s) would be longer.
                #expect(claims.expiresAt == bridge.clock.now.addingTimeInterval(540))
                let verified = try await bridge.app.wopiAccessTokenVerifier.verify(fresh, for: nil, at: bridge.clock.now)
                #expect(verified.grant.id == grant)
            }
        }
    }

    @Test(arguments: ["/wopi/ecosystem", "/wopi/ecosystem/root_container_pointer"])
    func refusedTokensGet401WithTheReasonOr404ForAFilesToken(path: String) async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let good = Self.ecosystemToken(bridge, grant: issued.grantID)
        var characters = Array(good)
        characters[characters.count - 2] = characters[characters.count - 2] == "A" ? "B" : "A"
        let forged = String(characters)
        let fileToken = Self.ecosystemToken(bridge, grant: issued.grantID, wopiSource: "https://contoso.com/wopi/files/1")
        let revokedGrant = try await bridge.issueToken().grantID
        let revoked = Self.ecosystemToken(bridge, grant: revokedGrant)
        let shortLived = Self.ecosystemToken(bridge, grant: issued.grantID, lifetime: 60)
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="https://contoso.com""#)
            }
            let refusals: [(String, String)] = [
                (forged, "not sealed by this server"), ("w1.abc", "format is malformed"),
                (revoked, "grant was revoked"),
            ]
            _ = try await bridge.store.revokeGrant(revokedGrant, at: bridge.clock.now)
            for (token, reason) in refusals {
                try await client.execute(uri: "\(path)?access_token=\(token)", method: .get) { response in
                    #expect(response.status == .unauthorized, "\(reason)")
                    let challenge = response.headers[.wwwAuthenticate] ?? ""
                    #expect(challenge.hasPrefix(#"Bearer realm="https://contoso.com", error="invalid_token""#))
                    #expect(challenge.contains(reason))
                }
            }
            try await client.execute(uri: "\(path)?access_token=\(fileToken)", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("for one file"))
            }
            let oversized = "w1." + String(repeating: "a", count: WopiAccessTokenSeal.maxBytes)
            try await client.execute(uri: "\(path)?access_token=\(oversized)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("over the limit of \(WopiAccessTokenSeal.maxBytes)"))
            }
            bridge.clock.advance(by: 61)
            try await client.execute(uri: "\(path)?access_token=\(shortLived)", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.contains("has expired") == true)
            }
            try await client.execute(uri: "\(path)?access_token=\(good)", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func withoutContainersCheckEcosystemSaysSoAndThePointerIsNotImplemented() async throws {
        let bridge = try await TestBridge.make(.testBridge.setting("wopi.ecosystem", to: .yaml("{supportsContainers: false}")))
        let token = Self.ecosystemToken(bridge, grant: try await bridge.issueToken().grantID)
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopi/ecosystem?access_token=\(token)", method: .get) { response in
                #expect(String(buffer: response.body) == #"{"SupportsContainers":false}"#)
            }
            try await client.execute(uri: "/wopi/ecosystem/root_container_pointer?access_token=\(token)", method: .get) {
                #expect($0.status == .notImplemented)
            }
        }
    }

    @Test func anEcosystemOnTheHostsWOPIServerIsNotServedHere() async throws {
        let bridge = try await TestBridge.make(
            .testBridge.setting("wopi.ecosystemUrlTemplate", to: "https://wopi.contoso.com/wopi/ecosystem?access_token={access_token}"))
        #expect(EcosystemHost(configuration: bridge.configuration) == .hostWOPIServer(url: "https://wopi.contoso.com/wopi/ecosystem"))
        let token = Self.ecosystemToken(bridge, grant: try await bridge.issueToken().grantID)
        try await bridge.app.makeApplication().test(.live) { client in
            for path in ["/wopi/ecosystem", "/wopi/ecosystem/root_container_pointer"] {
                try await client.execute(uri: "\(path)?access_token=\(token)", method: .get) { #expect($0.status == .notFound) }
            }
        }
    }
}
