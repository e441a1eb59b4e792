@testable import BridgeHTTP
@testable import BridgeServer
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SignInProtocol
import Testing

/// The server's additions to the floor's body reader (BridgeHTTPTests has the reader itself): the broker's JSON
/// parameters and the OAuth error a refusal becomes.
@Suite("Request body reader: the broker's JSON parameters and the OAuth error")
struct RequestBodyReaderTests {
    static func request(_ body: [UInt8], type: String?) -> Request {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "t", path: "/x")
        if let type { head.headerFields[.contentType] = type }
        return Request(head: head, body: .init(buffer: ByteBuffer(bytes: body)))
    }

    let reader = RequestBodyReader(maxBytes: 64)

    /// Over the limit or unreadable is RFC 6749 §5.2's `invalid_request` for the OAuth endpoints.
    @Test func anUnreadableBodyIsAnInvalidRequest() async {
        #expect(RequestBodyError.notUTF8.oauthError.code == .invalidRequest)
        #expect(RequestBodyError.tooLarge(limit: 64).oauthError.code == .invalidRequest)
    }

    /// The broker's bodies: a JSON object's string members or a form; nothing else.
    @Test func parametersComeFromJSONOrAForm() async throws {
        let json = try await reader.parameters(Self.request(Array(#"{"sessionId":"s","n":1}"#.utf8), type: "application/json"))
        #expect(json["sessionId"] == "s" && json["n"] == nil)
        let form = try await reader.parameters(Self.request(Array("sessionId=s".utf8), type: "application/x-www-form-urlencoded"))
        #expect(form["sessionId"] == "s")
        #expect(try await reader.parameters(Self.request([], type: nil)).pairs.isEmpty)
        await #expect(throws: RequestBodyError.notAJSONObject) {
            _ = try await reader.parameters(Self.request(Array("[1]".utf8), type: "application/json"))
        }
        await #expect(throws: RequestBodyError.unsupportedContentType(allowed: "application/json or application/x-www-form-urlencoded")) {
            _ = try await reader.parameters(Self.request(Array("x".utf8), type: "text/plain"))
        }
    }
}
