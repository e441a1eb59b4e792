import Foundation
import Hummingbird
import SignInProtocol

/// Why a bearer-protected endpoint (userinfo, the exchange endpoint, the app-to-app decision) refuses a request. The
/// cases follow RFC 6750 §3: the credential is judged first, and only a request with a good credential can be refused
/// for what it asks (`request`), which is never a 401.
enum BearerRefusal: Error, Sendable, Equatable {
    /// No token, or a scheme the endpoint does not accept: 401 with the bare challenge, no error code (§3.1).
    case noCredential
    /// A token that does not verify, expired, revoked or of a user that is gone: 401 `invalid_token`.
    case invalidToken(String)
    /// A good token that may not do this: 403 `insufficient_scope`.
    case insufficientScope(String)
    /// A good token and a bad request: the endpoint's own RFC code (400 `invalid_request` and its kin).
    case request(OAuthError)
    /// The store could not be asked: 503, never a pass and never a refusal of the token.
    case storeUnavailable
}

/// The one renderer of `BearerRefusal`s: `WWW-Authenticate: Bearer realm="…"` (RFC 6750 §3), with `error` and
/// `error_description` when the request carried a token, and the same error as a JSON body.
struct BearerChallenge: Sendable {
    let realm: String

    func response(_ refusal: BearerRefusal) -> Response {
        switch refusal {
        case .noCredential: challenge(.unauthorized, nil)
        case .invalidToken(let description): challenge(.unauthorized, OAuthError(.invalidToken, description: description))
        case .insufficientScope(let description):
            challenge(.forbidden, OAuthError(.insufficientScope, description: description))
        case .request(let error) where error.code == .invalidRequest:
            // RFC 6750 §3.1 names invalid_request for resources too, so the challenge says it as well.
            challenge(.badRequest, error)
        case .request(let error): OAuthHTTPResponse.error(error, realm: realm)
        case .storeUnavailable: OAuthHTTPResponse.error(.storeUnavailable, realm: realm)
        }
    }

    private func challenge(_ status: HTTPResponse.Status, _ error: OAuthError?) -> Response {
        var value = #"Bearer realm="\#(realm)""#
        if let error {
            value += #", error="\#(error.code.rawValue)""#
            if let description = error.wireDescription { value += #", error_description="\#(description)""# }
        }
        var response = OAuthHTTPResponse.json(Array((error?.json ?? "{}").utf8), status: status)
        response.headers[.wwwAuthenticate] = value
        return response
    }
}

/// RFC 6750's credential check, shared by every bearer-protected endpoint: finds the token (`BearerTokenPresentation`)
/// and verifies it, or says which refusal applies.
struct BearerTokenCheck: Sendable {
    let verifier: AccessTokenVerifier
    let maxHeaderBytes: Int

    /// `formToken` is the form field's value where the endpoint accepts one (the exchange endpoint's `oauth_token`).
    func verified(authorization: String?, formToken: String? = nil, at now: Date) async throws(BearerRefusal)
        -> VerifiedAccessToken
    {
        let token: String
        switch BearerTokenPresentation(authorization: authorization, formToken: formToken, maxHeaderBytes: maxHeaderBytes) {
        case .none: throw .noCredential
        case .twoMethods:
            throw .request(.invalidRequest("the access token was sent in more than one way (RFC 6750 section 2)"))
        case .token(let value, _): token = value
        }
        do {
            return try await verifier.verifiedToken(token, at: now)
        } catch .storeUnavailable {
            throw .storeUnavailable
        } catch {
            throw .invalidToken("the access token is invalid")
        }
    }
}
