@testable import BridgeServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

/// A posted body the browser steps cannot read (over `limits.maxBodyBytes`, or not a form) is a page that names
/// what was wrong, never the bytes, and never a 500.
@Suite("Posted forms of the browser steps")
struct PostedFormTests {
    static let limit = 2048
    static let yaml = AuthorizeFixture.yaml + "\nlimits: {maxBodyBytes: \(limit)}\n"

    /// A chunked post (no `Content-Length`, so only the body reader can tell its size) with `cookie`, over a socket.
    static func chunkedPost(port: Int, path: String, body: String, cookie: String? = nil) async throws -> String {
        let connection = try RawConnection(port: port)
        let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\n\(cookieLine)"
                + "Transfer-Encoding: chunked\r\n\r\n" + String(body.utf8.count, radix: 16) + "\r\n\(body)\r\n0\r\n\r\n")
        return await connection.receive(responses: 1)
    }

    @Test func anAuthorizePostOverTheLimitIs413NamingTheLimit() async throws {
        let bridge = try await AuthorizeFixture.make(yaml: Self.yaml)
        try await bridge.app.makeApplication().test(.live) { client in
            let body = AuthorizeFixture.officeQuery + "&filler=" + String(repeating: "q", count: Self.limit)
            let answer = try await Self.chunkedPost(port: try #require(client.port), path: "/oauth2/authorize", body: body)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(80))")
            #expect(answer.contains("the request body is over \(Self.limit) bytes"))
            #expect(!answer.contains("qqqq"), "the body is not echoed")
        }
    }

    @Test func anAuthorizePostThatIsNotAFormIs400NamingTheType() async throws {
        let bridge = try await AuthorizeFixture.make(yaml: Self.yaml)
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).send(
                "/oauth2/authorize", method: .post, headers: [.contentType: "text/plain"], body: AuthorizeFixture.officeQuery)
            #expect(page.status == .badRequest && page.location == nil)
            #expect(page.body.contains("the body must be application/x-www-form-urlencoded"))
            #expect(!page.body.contains("client_id=office"))
        }
    }

    @Test func aSignInPostOverTheLimitOrNotAFormIsAPageNamingIt() async throws {
        let bridge = try await AuthorizeFixture.make(yaml: Self.yaml)
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signIn = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            let action = try #require(signIn.formAction)
            let csrf = try #require(signIn.hiddenValue("csrf_token"))
            let cookie = browser.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let large = "csrf_token=\(csrf)&username=alice&password=" + String(repeating: "p", count: Self.limit)
            let answer = try await Self.chunkedPost(
                port: try #require(client.port), path: action, body: large, cookie: cookie)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(80))")
            #expect(answer.contains("the request body is over \(Self.limit) bytes") && !answer.contains("pppp"))
            let json = try await browser.send(
                action, method: .post, headers: [.contentType: "application/json"], body: #"{"csrf_token":"\#(csrf)"}"#)
            #expect(json.status == .badRequest)
            #expect(json.body.contains("the body must be application/x-www-form-urlencoded"))
            let retried = try await browser.signIn(on: signIn)
            #expect(retried.status == .seeOther, "the request is still usable")
        }
    }
}
