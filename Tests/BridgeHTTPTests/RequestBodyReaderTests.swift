@testable import BridgeHTTP
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SignInProtocolCore
import Testing

/// The one body reader: its limit, the content types it reads and the typed error for each refusal.
@Suite("Request body reader")
struct RequestBodyReaderTests {
    static func request(_ body: [UInt8], type: String?) -> Request {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "t", path: "/x")
        if let type { head.headerFields[.contentType] = type }
        return Request(head: head, body: .init(buffer: ByteBuffer(bytes: body)))
    }

    let reader = RequestBodyReader(maxBytes: 64)

    @Test func aFormIsReadAndDecoded() async throws {
        let form = try await reader.form(Self.request(Array("a=1&b=%C3%A9".utf8), type: "application/x-www-form-urlencoded; charset=UTF-8"))
        #expect(form["a"] == "1" && form["b"] == "é")
    }

    @Test func refusalsAreTypedAndNameNoInput() async {
        await #expect(throws: RequestBodyError.tooLarge(limit: 64)) {
            _ = try await reader.formText(Self.request(Array(repeating: UInt8(ascii: "a"), count: 65), type: "application/x-www-form-urlencoded"))
        }
        await #expect(throws: RequestBodyError.unsupportedContentType(allowed: "application/x-www-form-urlencoded (RFC 6749 section 3.2)")) {
            _ = try await reader.formText(Self.request(Array("{}".utf8), type: "application/json"))
        }
        await #expect(throws: RequestBodyError.notUTF8) {
            _ = try await reader.formText(Self.request([0x61, 0x3D, 0xFF, 0xFE], type: "application/x-www-form-urlencoded"))
        }
        let malformed = await #expect(throws: RequestBodyError.self) {
            _ = try await reader.form(Self.request(Array("a=%zz".utf8), type: "application/x-www-form-urlencoded"))
        }
        if case .malformedForm = malformed {} else { Issue.record("\(String(describing: malformed))") }
    }
}
