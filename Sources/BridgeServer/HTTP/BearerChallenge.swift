import Hummingbird
import SignInProtocol

/// The answers of an endpoint protected by a bearer access token (RFC 6750 §3): `WWW-Authenticate: Bearer
/// realm="…"`, with `error` and `error_description` when the request carried a token, and the same error as JSON.
struct BearerChallenge: Sendable {
    let realm: String

    /// No token at all: 401 without an error code (RFC 6750 §3.1).
    func missing() -> Response { response(.unauthorized, error: nil, description: nil) }

    /// A token that is not usable: 401 `invalid_token`.
    func invalidToken(_ description: String) -> Response {
        response(.unauthorized, error: "invalid_token", description: description)
    }

    /// A good token that may not do this: 403 `insufficient_scope`.
    func insufficientScope(_ description: String) -> Response {
        response(.forbidden, error: "insufficient_scope", description: description)
    }

    func response(_ status: HTTPResponse.Status, error: String?, description: String?) -> Response {
        var value = #"Bearer realm="\#(realm)""#
        if let error { value += #", error="\#(error)""# }
        if let description { value += #", error_description="\#(description)""# }
        let body = error.map { OAuthError(.other($0), description: description).json } ?? "{}"
        var response = OAuthHTTPResponse.json(Array(body.utf8), status: status)
        response.headers[.wwwAuthenticate] = value
        return response
    }

    /// The store could not be asked: 503 with `Retry-After`, never a pass.
    static func unavailable() -> Response {
        var response = OAuthHTTPResponse.json(
            Array(OAuthError.storeUnavailable.json.utf8),
            status: .serviceUnavailable)
        response.headers[.retryAfter] = "5"
        return response
    }
}
