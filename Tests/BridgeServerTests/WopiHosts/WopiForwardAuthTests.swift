@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// The forward-auth check a reverse proxy asks before it passes a request to a WOPI host (`/wopi/auth`,
/// docs/wopi-hosts.md), on TestBridge's configuration: WopiSrc prefix `https://contoso.com/wopi/files/`.
@Suite("WOPI forward auth")
struct WopiForwardAuthTests {
    static let file = "https://contoso.com/wopi/files/42"

    /// A WOPI token as the bootstrapper seals one, for `wopiSource` (nil: the ecosystem token), under a new grant.
    static func token(
        _ bridge: TestBridge, for wopiSource: String? = file, lifetime: TimeInterval = 600
    ) async throws -> (token: String, grant: GrantID) {
        let grant = try await bridge.issueToken().grantID
        let now = bridge.clock.now
        let claims = WopiAccessTokenClaims(grantID: grant, wopiSource: wopiSource, issuedAt: now, expiresAt: now + lifetime)
        return (WopiAccessTokenSeal(keys: bridge.app.services.keys).seal(claims), grant)
    }

    /// `token` with its seal's first character changed: every bit of it is the MAC's.
    static func forged(_ token: String) -> String {
        let seal = token.split(separator: ".").last!
        return token.dropLast(seal.count) + (seal.first == "A" ? "B" : "A") + seal.dropFirst()
    }

    static func nginx(
        _ uri: String?, method: String = "GET", host: String? = nil, authorization: String? = nil
    ) -> ForwardedWopiRequest {
        ForwardedWopiRequest(originalURI: uri, method: method, forwardedHost: host, authorization: authorization)
    }

    /// The status the one renderer gives a refusal, and its RFC 6750 error code.
    static func answer(_ refusal: BearerRefusal) -> (status: Int, error: String?) {
        let response = BearerChallenge(realm: "https://contoso.com").response(refusal)
        let challenge = response.headers[.wwwAuthenticate] ?? ""
        let code = challenge.firstRange(of: #"error=""#).map { challenge[$0.upperBound...].prefix { $0 != "\"" } }.map(String.init)
        return (response.status.code, code)
    }

    static func refusal(_ endpoint: WopiForwardAuthEndpoint, _ request: ForwardedWopiRequest) async -> BearerRefusal? {
        do {
            _ = try await endpoint.check(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFilesOwnTokenPassesWithItsUserForTheFileAndItsSubresources() async throws {
        let bridge = try await TestBridge.make()
        let (token, _) = try await Self.token(bridge)
        let endpoint = bridge.app.services.wopiForwardAuth
        for path in ["/wopi/files/42", "/wopi/files/42/contents", "/wopi/files/42/ancestry"] {
            let answer = try await endpoint.check(Self.nginx(path + "?access_token=\(token)&other=1"))
            #expect(answer == WopiForwardAuthAnswer(
                userID: "alice", signInName: "alice@contoso.com", tokenExpiry: 1_800_000_600_000, clientID: "office",
                wopiSource: Self.file))
        }
        // Office sends the token in Authorization too (the same one), or there alone.
        let both = Self.nginx("/wopi/files/42?access_token=\(token)", method: "POST", authorization: "Bearer \(token)")
        #expect(try await endpoint.check(both).userID == "alice")
        #expect(try await endpoint.check(Self.nginx("/wopi/files/42", authorization: "Bearer \(token)")).userID == "alice")
        // X-Forwarded-Host names the prefix's host; the port is not compared.
        #expect(try await endpoint.check(Self.nginx("/wopi/files/42?access_token=\(token)", host: "Contoso.com:8443")).userID == "alice")
        try await bridge.store.close()
    }

    @Test(arguments: [
        // (what, original URI, method, X-Forwarded-Host, status, error)
        ("no original URI", nil, "GET", nil, 400, "invalid_request"),
        ("a method WOPI does not use", "/wopi/files/42?access_token=t", "PUT", nil, 400, "invalid_request"),
        ("a path under no prefix", "/wopi/other/42?access_token=t", "GET", nil, 400, "invalid_request"),
        ("the prefix folder itself", "/wopi/files/?access_token=t", "GET", nil, 400, "invalid_request"),
        ("an unknown sub-resource", "/wopi/files/42/secrets?access_token=t", "GET", nil, 400, "invalid_request"),
        ("a dot segment as the file id", "/wopi/files/%2e%2e?access_token=t", "GET", nil, 400, "invalid_request"),
        ("not a path", "wopi/files/42?access_token=t", "GET", nil, 400, "invalid_request"),
        ("another host", "/wopi/files/42?access_token=t", "GET", "attacker.test", 400, "invalid_request"),
        ("access_token twice", "/wopi/files/42?access_token=a&access_token=b", "GET", nil, 400, "invalid_request"),
        ("a malformed query", "/wopi/files/42?access_token=%zz", "GET", nil, 400, "invalid_request"),
        ("no token", "/wopi/files/42", "GET", nil, 401, nil),
        ("a malformed token", "/wopi/files/42?access_token=w1.x", "GET", nil, 401, "invalid_token"),
        ("a JWT, not a WOPI token", "/wopi/files/42?access_token=eyJh.eyJz.c2ln", "GET", nil, 401, "invalid_token"),
    ] as [(String, String?, String, String?, Int, String?)])
    func badInputIsRefusedWithItsReason(
        what: String, uri: String?, method: String, host: String?, status: Int, error: String?
    ) async throws {
        let bridge = try await TestBridge.make()
        let refusal = try #require(await Self.refusal(bridge.app.services.wopiForwardAuth, Self.nginx(uri, method: method, host: host)))
        let answer = Self.answer(refusal)
        #expect(answer.status == status, "\(what)")
        #expect(answer.error == error, "\(what)")
        try await bridge.store.close()
    }

    @Test func oversizedInputIsRefusedBeforeItIsRead() async throws {
        let bridge = try await TestBridge.make()
        let endpoint = bridge.app.services.wopiForwardAuth
        let limit = bridge.configuration.limits.maxHeaderValueBytes
        let long = String(repeating: "A", count: limit)
        #expect(await Self.refusal(endpoint, Self.nginx("/wopi/files/42?access_token=" + long)).map(Self.answer)?.status == 400)
        // An Authorization value over the limit is no credential (BearerCredential reads none of it).
        #expect(await Self.refusal(endpoint, Self.nginx("/wopi/files/42", authorization: "Bearer " + long)) == .noCredential)
        var repeated = ForwardedWopiRequest(
            headers: [ForwardedWopiRequest.originalURI: "/wopi/files/42", ForwardedWopiRequest.originalURI: "/wopi/files/43"],
            path: "/wopi/auth", method: "GET")
        #expect(repeated.repeatedField == "X-Original-URI")
        #expect(await Self.refusal(endpoint, repeated).map(Self.answer)?.status == 400)
        repeated.repeatedField = nil
        #expect(await Self.refusal(endpoint, repeated) == .noCredential)
        try await bridge.store.close()
    }

    @Test func anotherFilesEcosystemForgedExpiredAndRevokedTokensAreRefused() async throws {
        let bridge = try await TestBridge.make()
        let endpoint = bridge.app.services.wopiForwardAuth
        let (token, grant) = try await Self.token(bridge)
        let other = try await Self.token(bridge, for: "https://contoso.com/wopi/files/43").token
        let ecosystem = try await Self.token(bridge, for: nil).token
        let shortLived = try await Self.token(bridge, lifetime: 1).token
        func status(_ token: String, _ path: String = "/wopi/files/42") async -> Int? {
            await Self.refusal(endpoint, Self.nginx("\(path)?access_token=\(token)")).map(Self.answer)?.status
        }
        #expect(await status(other) == 403)
        #expect(await status(token, "/wopi/files/43") == 403)
        #expect(await status(ecosystem) == 403)
        #expect(await status(Self.forged(token)) == 401)
        // The seal's last character has two unused bits (RFC 4648 §3.5), zero as written: the next character of the
        // alphabet (always the next ASCII letter or digit there) spells the same MAC, and is refused.
        let respelled = String(token.dropLast()) + String(Character(Unicode.Scalar(token.last!.asciiValue! + 1)))
        #expect(Base64URL.decode(String(respelled.split(separator: ".").last!))
            == Base64URL.decode(String(token.split(separator: ".").last!)))
        #expect(await status(respelled) == 401)
        let twoTokens = Self.nginx("/wopi/files/42?access_token=\(token)", authorization: "Bearer \(other)")
        #expect(await Self.refusal(endpoint, twoTokens).map(Self.answer)?.status == 400)
        #expect(await status(token) == nil)
        bridge.clock.advance(by: 1)
        #expect(await status(shortLived) == 401)
        // Kept for tokens.statusCacheMilliseconds, but a revocation through this server's store drops it at once.
        #expect(try await bridge.store.revokeGrant(grant, at: bridge.clock.now))
        #expect(await Self.refusal(endpoint, Self.nginx("/wopi/files/42?access_token=\(token)")) == .invalidToken(
            "the WOPI access token's grant was revoked"))
        // A grant not read before, with the store gone: 503, never a pass.
        let unread = try await Self.token(bridge).token
        try await bridge.store.close()
        #expect(await Self.refusal(endpoint, Self.nginx("/wopi/files/42?access_token=\(unread)")) == .storeUnavailable)
    }

    @Test func aPathNamesAFileUnderExactlyOnePrefix() {
        let prefixes = WopiSourcePrefixes([
            "https://a.example/wopi/files/", "https://b.example/wopi/files", "https://a.example/docs/wopi/files/",
        ])
        #expect(prefixes.fileSource(path: "/wopi/files/1", forwardedHost: "B.example:443") == "https://b.example/wopi/files/1")
        // One path on two hosts, and no host said: neither (a token of a.example's file 1 must not open b.example's).
        #expect(prefixes.fileSource(path: "/wopi/files/1", forwardedHost: nil) == nil)
        #expect(prefixes.fileSource(path: "/docs/wopi/files/1/contents", forwardedHost: nil) == "https://a.example/docs/wopi/files/1")
        #expect(prefixes.fileSource(path: "//docs//wopi/files/1", forwardedHost: "a.example") == "https://a.example/docs/wopi/files/1")
        for id in ["%2F", "%2e", "..", "%00", "a%5Cb", "%zz"] {
            #expect(prefixes.fileSource(path: "/docs/wopi/files/\(id)", forwardedHost: nil) == nil, "\(id)")
        }
        #expect(prefixes.fileSource(path: "/wopi/files/1", forwardedHost: "[::1]:8080") == nil)
    }

    /// The byte-level check says what Foundation's decoding said before it (the rule it replaced).
    @Test func aPlainSegmentIsWhatFoundationsDecodingCallsOne() {
        func foundation(_ segment: String) -> Bool {
            guard let decoded = segment.removingPercentEncoding, decoded != ".", decoded != ".." else { return false }
            return !decoded.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
        }
        let segments = [
            "42", "doc-a", "Zo%C3%AB", "Zoë", "%41%62", "%2e", "%2E%2E", ".", "..", "...", ".%2e", "%2F", "a%2fb", "a%5Cb",
            "a\\b", "%00", "%1F", "%7F", "%7E", "%zz", "%", "%4", "a%", "%C3", "%C3%28", "%FF", "%e2%82%ac", "%20", "a b",
        ]
        for segment in segments {
            #expect(WopiSourcePrefixes.isPlainSegment(Substring(segment)) == foundation(segment), "\(segment)")
        }
    }

    @Test func envoyAndTraefikDescribeTheOriginalRequestTheirWay() {
        let envoy = ForwardedWopiRequest(headers: [:], path: "/wopi/auth/wopi/files/42?access_token=t", method: "POST")
        #expect(envoy == ForwardedWopiRequest(originalURI: "/wopi/files/42?access_token=t", method: "POST"))
        let traefik = ForwardedWopiRequest(
            headers: [
                ForwardedWopiRequest.forwardedURI: "/wopi/files/42?access_token=t",
                ForwardedWopiRequest.forwardedMethod: "POST", ForwardedWopiRequest.forwardedHost: "contoso.com",
            ],
            path: "/wopi/auth", method: "GET")
        #expect(traefik == ForwardedWopiRequest(
            originalURI: "/wopi/files/42?access_token=t", method: "POST", forwardedHost: "contoso.com"))
        // nginx's fields win over the path; without any, there is no original URI.
        let nginx = ForwardedWopiRequest(
            headers: [ForwardedWopiRequest.originalURI: "/wopi/files/1", ForwardedWopiRequest.originalMethod: "GET"],
            path: "/wopi/auth/wopi/files/2", method: "POST")
        #expect(nginx.originalURI == "/wopi/files/1" && nginx.method == "GET")
        #expect(ForwardedWopiRequest(headers: [:], path: "/wopi/auth", method: "GET").originalURI == nil)
    }

    @Test func fieldValuesKeepPrintableASCIIAndEncodeTheRest() {
        #expect(BridgeRoutes.fieldValue("demo@example.com") == "demo@example.com")
        #expect(BridgeRoutes.fieldValue("Zoë 100%\r\n") == "Zo%C3%AB 100%25%0D%0A")
    }

    @Test func overTheWireTheProxyGetsTheUsersFieldsOrTheChallenge() async throws {
        let bridge = try await TestBridge.make()
        let (token, _) = try await Self.token(bridge)
        try await bridge.app.makeApplication().test(.live) { client in
            let uri = HTTPField.Name("X-Original-URI")!
            try await client.execute(uri: "/wopi/auth", method: .get, headers: [uri: "/wopi/files/42?access_token=\(token)"]) {
                #expect($0.status == .ok)
                #expect($0.headers[.wopiUserID] == "alice")
                #expect($0.headers[.wopiSignInName] == "alice@contoso.com")
                #expect($0.headers[.wopiTokenExpiry] == "1800000600000")
                #expect($0.headers[.wopiSrc] == Self.file)
                #expect($0.headers[.cacheControl] == "no-store")
            }
            // Envoy's ext_authz: the original path below /wopi/auth, the original method.
            try await client.execute(uri: "/wopi/auth/wopi/files/42/contents?access_token=\(token)", method: .post) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/wopi/auth", method: .get) {
                #expect($0.status == .badRequest)
                #expect($0.headers[.wwwAuthenticate]?.contains(#"error="invalid_request""#) == true)
                #expect(String(buffer: $0.body).contains("X-Original-URI"))
            }
            try await client.execute(uri: "/wopi/auth", method: .get, headers: [uri: "/wopi/files/42?access_token=w1.a.b.c"]) {
                #expect($0.status == .unauthorized)
                #expect($0.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                #expect($0.headers[.wopiUserID] == nil)
            }
            try await client.execute(uri: "/wopi/auth", method: .get, headers: [uri: "/wopi/files/43?access_token=\(token)"]) {
                #expect($0.status == .forbidden)
                #expect($0.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            }
        }
        try await bridge.store.close()
    }
}
