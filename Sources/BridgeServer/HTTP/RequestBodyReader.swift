import Foundation
import Hummingbird
import SignInProtocol

/// The one way a route reads a request body: at most `limits.maxBodyBytes`, as a form (`application/x-www-form-
/// urlencoded`, RFC 6749 §3.2 and the HTML pages' posts) or, where an endpoint takes it, a JSON object of strings.
struct RequestBodyReader: Sendable {
    let maxBytes: Int

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    init(_ configuration: BridgeConfiguration) { maxBytes = configuration.limits.maxBodyBytes }

    static let formType = "application/x-www-form-urlencoded"

    /// The media type of the request, lower case, without parameters.
    static func mediaType(of request: Request) -> String? {
        request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A form body's text, undecoded (the OAuth request types decode it themselves, with their own typed errors).
    func formText(_ request: Request) async throws(RequestBodyError) -> String {
        guard Self.mediaType(of: request) == Self.formType else {
            throw .unsupportedContentType(allowed: "\(Self.formType) (RFC 6749 section 3.2)")
        }
        return try await text(request)
    }

    /// A form body, decoded.
    func form(_ request: Request) async throws(RequestBodyError) -> FormParameters {
        let text = try await formText(request)
        do {
            return try FormParameters.decodeForOAuth(text, limit: InputLimit(maxBytes: maxBytes), what: "form body")
        } catch {
            throw .malformedForm(error)
        }
    }

    /// A form, or a JSON object whose string members are the parameters (the Vipps iOS login guide's sample sends
    /// JSON); an empty body is no parameters.
    func parameters(_ request: Request) async throws(RequestBodyError) -> FormParameters {
        let type = Self.mediaType(of: request)
        if type == Self.formType { return try await form(request) }
        let body = try await text(request)
        if body.isEmpty { return FormParameters() }
        guard type == "application/json" else {
            throw .unsupportedContentType(allowed: "application/json or \(Self.formType)")
        }
        guard let object = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(body.utf8)) else {
            throw .notAJSONObject
        }
        var form = FormParameters()
        for (name, value) in object.sorted(by: { $0.key < $1.key }) { if let string = value.string { form.append(name, string) } }
        return form
    }

    /// The body as UTF-8 text, within the limit.
    func text(_ request: Request) async throws(RequestBodyError) -> String {
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
