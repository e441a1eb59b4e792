import Foundation
import HTTPTypes
import Hummingbird
import SignInProtocol

/// The one renderer of `BearerRefusal`s: `WWW-Authenticate: Bearer realm="…"` (RFC 6750 §3), with `error` and
/// `error_description` when the request carried a token, and the same error as a JSON body. Where the resource
/// accepts DPoP tokens too, a `DPoP` challenge with the accepted `algs` goes beside it (RFC 9449 §7.1), carrying the
/// error as well; the DPoP-only errors are said in the `DPoP` challenge alone.
struct BearerChallenge: Sendable {
    let realm: String
    /// The resource takes `DPoP` tokens as well as bearer tokens.
    var acceptsDPoP = false

    func response(_ refusal: BearerRefusal) -> Response {
        switch refusal {
        case .noCredential: return challenge(.unauthorized, nil)
        case .invalidToken(let description):
            return challenge(.unauthorized, OAuthError(.invalidToken, description: description))
        case .insufficientScope(let description):
            return challenge(.forbidden, OAuthError(.insufficientScope, description: description))
        case .request(let error) where error.code == .invalidRequest:
            // RFC 6750 §3.1 names invalid_request for resources too, so the challenge says it as well.
            return challenge(.badRequest, error)
        case .request(let error): return OAuthHTTPResponse.error(error, realm: realm)
        case .storeUnavailable: return OAuthHTTPResponse.error(.storeUnavailable, realm: realm)
        case .invalidDPoPProof(let error): return challenge(.unauthorized, error, dpopOnly: true)
        case .dpopNonceRequired(let nonce):
            var response = challenge(.unauthorized, DPoPRefusal.nonceRequired(nonce: nonce).oauthError, dpopOnly: true)
            response.headers[.dpopNonce] = nonce
            return response
        }
    }

    private func challenge(_ status: HTTPResponse.Status, _ error: OAuthError?, dpopOnly: Bool = false) -> Response {
        var parameters = ""
        if let error {
            parameters += #"error="\#(error.code.rawValue)""#
            if let description = error.wireDescription { parameters += #", error_description="\#(description)""# }
        }
        var response = OAuthHTTPResponse.json(Array((error?.json ?? "{}").utf8), status: status)
        let bearer = #"Bearer realm="\#(realm)""# + (dpopOnly || parameters.isEmpty ? "" : ", " + parameters)
        // §7.1 offers the DPoP scheme on 401s; a 400 or 403 judged a good credential, so it stays the one challenge.
        guard acceptsDPoP, status == .unauthorized else {
            response.headers[.wwwAuthenticate] = bearer
            return response
        }
        // RFC 9449 §7.1: `algs` lists the proof algorithms accepted. A DPoP-only error puts its challenge first, where
        // clients that read one joined header value look (requests-oauth2client does).
        let dpop = #"DPoP realm="\#(realm)", algs="\#(DPoPProofKey.algorithms.joined(separator: " "))""#
            + (parameters.isEmpty ? "" : ", " + parameters)
        for value in dpopOnly ? [dpop, bearer] : [bearer, dpop] {
            response.headers.append(HTTPField(name: .wwwAuthenticate, value: value))
        }
        return response
    }
}
