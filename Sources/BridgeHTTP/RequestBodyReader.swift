import Foundation
import Hummingbird
import SignInProtocolCore

/// The one way a route reads a request body: at most `maxBytes` (the server passes `limits.maxBodyBytes`), as text
/// or as a form (`application/x-www-form-urlencoded`, RFC 6749 §3.2 and the HTML pages' posts).
package struct RequestBodyReader: Sendable {
    package let maxBytes: Int

    package init(maxBytes: Int) { self.maxBytes = maxBytes }

    package static let formType = "application/x-www-form-urlencoded"

    /// The media type of the request, lower case, without parameters.
    package static func mediaType(of request: Request) -> String? {
        request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A form body's text, undecoded (the OAuth request types decode it themselves, with their own typed errors).
    package func formText(_ request: Request) async throws(RequestBodyError) -> String {
        guard Self.mediaType(of: request) == Self.formType else {
            throw .unsupportedContentType(allowed: "\(Self.formType) (RFC 6749 section 3.2)")
        }
        return try await text(request)
    }

    /// A form body, decoded.
    package func form(_ request: Request) async throws(RequestBodyError) -> FormParameters {
        let text = try await formText(request)
        do {
            return try FormParameters.decodeForOAuth(text, limit: InputLimit(maxBytes: maxBytes), what: "form body")
        } catch {
            throw .malformedForm(error)
        }
    }

    /// The body as UTF-8 text, within the limit.
    package func text(_ request: Request) async throws(RequestBodyError) -> String {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch {
            throw .tooLarge(limit: maxBytes)
        }
        guard let text = buffer.getString(at: buffer.readerIndex, length: buffer.readableBytes),
            text.utf8.count == buffer.readableBytes
        else { throw .notUTF8 }
        return text
    }
}
