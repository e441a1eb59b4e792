import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInProtocol
import Testing

/// A server configured with the three kinds of client the authorize endpoint treats differently: Office
/// (confidential, `sc` and `tk`), a partner app (public: PKCE required; loopback too) and the host's own app
/// (first party: no consent page). Users get a cheap bcrypt cost so that throttling tests stay quick.
enum AuthorizeFixture {
    static let yaml = """
        issuer: https://contoso.com
        listen: {host: 127.0.0.1, port: 0}
        log: {level: warning, requests: false}
        signIn: {bcryptCost: 4, throttle: {maxFailures: 3, windowSeconds: 900}}
        wopi:
          ecosystemUrlTemplate: https://contoso.com/wopi/ecosystem?access_token={access_token}
          rootContainer: {name: My files, urlTemplate: "https://contoso.com/wopi/containers/root?access_token={access_token}"}
          wopiSrcPrefixes: [https://contoso.com/wopi/files/]
        clients:
          - id: office
            name: Microsoft Office
            secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
            redirectUris: [https://localhost]
            grants: [authorization_code, refresh_token]
            sessionContext: true
            tokenEndpointOverride: https://contoso.com/api/token/?extra=stuff
          - id: partner-app
            public: true
            redirectUris: [com.example.partner:/oauth2redirect, http://127.0.0.1/callback]
            grants: [authorization_code]
          - id: own-app
            public: true
            firstParty: true
            redirectUris: [com.contoso.files:/done]
            grants: [authorization_code]
          - id: robot
            secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
            redirectUris: [https://robot.contoso.com/cb]
            grants: [client_credentials]
        """

    static let password = "correct horse battery staple"

    static func make(yaml: String = yaml) async throws -> TestBridge {
        let bridge = try await TestBridge.make(yaml: yaml)
        try await bridge.store.saveUser(
            UserRecord(
                id: "alice", signInName: "alice@contoso.com", friendlyName: "Alice",
                passwordHash: try await bridge.app.hashPassword(password)))
        return bridge
    }

    /// RFC 7636 Appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// The Office docs' authorize query (Microsoft's app-to-app docs) with our redirect and a state.
    static let officeQuery =
        "client_id=office&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=wopi&state=xyz%2F1&rs=en-US&build=16.0.1234&platform=iOS"
}

/// A browser over a real socket: keeps cookies, does not follow redirects, so every hop is visible.
final class TestBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// Every Set-Cookie line received, for attribute checks.
    private(set) var setCookieLines: [String] = []
    var acceptLanguage: String?

    init(_ client: any TestClientProtocol) { self.client = client }

    struct Page {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String
        var location: String? { headers[.location] }

        /// The value of `<input … name="NAME" value="…">`.
        func hiddenValue(_ name: String) -> String? {
            guard let range = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }

        /// The `action` of the page's form.
        var formAction: String? {
            guard let range = body.range(of: "action=\"") else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }

        /// The `code` of a successful final redirect.
        func redirectCode() throws -> String {
            let location = try #require(location)
            let code = try AuthorizationResponse.decode(redirectURL: location).code
            return try #require(code)
        }

        /// The query parameters of the redirect target.
        func redirectParameters() throws -> FormParameters {
            let location = try #require(location)
            let query = try #require(location.split(separator: "?", maxSplits: 1).last)
            return try FormParameters.decode(query)
        }
    }

    func get(_ uri: String, headers extra: HTTPFields = [:]) async throws -> Page {
        try await send(uri, method: .get, headers: extra, body: nil)
    }

    func post(_ uri: String, form: FormParameters, headers extra: HTTPFields = [:]) async throws -> Page {
        var headers = extra
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(uri, method: .post, headers: headers, body: form.encoded)
    }

    func send(_ uri: String, method: HTTPRequest.Method, headers extra: HTTPFields, body: String?) async throws -> Page {
        var headers = extra
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        let page = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
        }
        for line in page.headers[values: .setCookie] {
            setCookieLines.append(line)
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return page
    }

    func forgetCookie(_ name: String) { cookies[name] = nil }
    func setCookie(_ name: String, _ value: String) { cookies[name] = value }

    /// Signs in on a sign-in page; returns the answer to the form post.
    func signIn(on page: Page, user: String = "alice@contoso.com", password: String = AuthorizeFixture.password)
        async throws -> Page
    {
        let action = try #require(page.formAction)
        var form = FormParameters()
        let csrf: String = try #require(page.hiddenValue("csrf_token"))
        form.append("csrf_token", csrf)
        form.append("username", user)
        form.append("password", password)
        return try await post(action, form: form)
    }

    func decide(_ decision: String, on page: Page) async throws -> Page {
        let action = try #require(page.formAction)
        var form = FormParameters()
        let csrf: String = try #require(page.hiddenValue("csrf_token"))
        form.append("csrf_token", csrf)
        form.append("decision", decision)
        return try await post(action, form: form)
    }
}
