import SignInProtocolCore

/// Why a request body could not be used. Each case says what was wrong, never what the body held.
package enum RequestBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Over the reader's `maxBytes`.
    case tooLarge(limit: Int)
    /// Not a content type the endpoint reads; `allowed` names the ones it does.
    case unsupportedContentType(allowed: String)
    case notUTF8
    /// A form whose encoding is broken (a bad `%` escape, a parameter over the limit), as the decoder names it.
    case malformedForm(OAuthDecodingError)
    /// JSON that is not an object.
    case notAJSONObject

    package var description: String {
        switch self {
        case .tooLarge(let limit): "the request body is over \(limit) bytes"
        case .unsupportedContentType(let allowed): "the body must be \(allowed)"
        case .notUTF8: "the request body is not UTF-8"
        case .malformedForm(let error): "the form body is malformed: \(error)"
        case .notAJSONObject: "the body is not a JSON object"
        }
    }
}
