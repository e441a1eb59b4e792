import Foundation
import HTTPTypes
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
    /// A `DPoP` token whose proof is missing or wrong: 401 `invalid_dpop_proof` (RFC 9449 §7.1).
    case invalidDPoPProof(OAuthError)
    /// A proof without the server's current nonce: 401 `use_dpop_nonce` with the nonce in `DPoP-Nonce` (§9).
    case dpopNonceRequired(nonce: String)

    /// The refusal of a resource request whose proof `DPoPProofs` refused.
    init(_ refusal: DPoPRefusal) {
        switch refusal {
        case .invalidProof(let problem): self = .invalidDPoPProof(problem.oauthError)
        case .nonceRequired(let nonce): self = .dpopNonceRequired(nonce: nonce)
        case .storeUnavailable: self = .storeUnavailable
        }
    }
}

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

/// RFC 6750's credential check, shared by every bearer-protected endpoint: finds the token (`BearerTokenPresentation`)
/// and verifies it, or says which refusal applies.
struct BearerTokenCheck: Sendable {
    let verifier: AccessTokenVerifier
    let maxHeaderBytes: Int
    let dpop: DPoPProofs

    /// `formToken` is the form field's value where the endpoint accepts one (the exchange endpoint's `oauth_token`);
    /// `dpop` the request's DPoP fields where the endpoint accepts DPoP tokens (RFC 9449 §7), nil where it does not.
    func verified(
        authorization: String?, formToken: String? = nil, dpop presentation: DPoPPresentation? = nil, at now: Date
    ) async throws(BearerRefusal) -> VerifiedAccessToken {
        let token: String
        let placement: ExchangeRequest.TokenPlacement
        switch BearerTokenPresentation(
            authorization: authorization, formToken: formToken, maxHeaderBytes: maxHeaderBytes,
            acceptsDPoP: presentation != nil)
        {
        case .none: throw .noCredential
        case .twoMethods:
            throw .request(.invalidRequest("the access token was sent in more than one way (RFC 6750 section 2)"))
        case .token(let value, let place): (token, placement) = (value, place)
        }
        var proof: VerifiedDPoPProof?
        if placement == .dpopHeader, let presentation {
            proof = try await self.proof(presentation, for: token, at: now)
        }
        let verified: VerifiedAccessToken
        do {
            verified = try await verifier.verifiedToken(token, at: now)
        } catch .storeUnavailable {
            throw .storeUnavailable
        } catch {
            throw .invalidToken("the access token is invalid")
        }
        if proof == nil, verified.claims.cnf != nil {
            throw .invalidToken("the access token is DPoP-bound: send it with the DPoP scheme and a proof (RFC 9449 section 7.2)")
        }
        if proof != nil, verified.claims.cnf == nil || !DPoPBinding.checkAccessToken(verified.claims, proof: proof) {
            throw .invalidToken("the access token is not bound to the proof's key (RFC 9449 section 7.1)")
        }
        return verified
    }

    /// The proof that must come with a `DPoP` token, checked with its `ath` and recorded as used (§7.1).
    private func proof(_ presentation: DPoPPresentation, for token: String, at now: Date) async throws(BearerRefusal)
        -> VerifiedDPoPProof
    {
        let header: String?
        do {
            header = try presentation.singleProof()
        } catch {
            throw .invalidDPoPProof(error)
        }
        guard let header else {
            throw .invalidDPoPProof(OAuthError(.invalidDPoPProof, description: "a DPoP token needs a DPoP proof (RFC 9449 section 7.1)"))
        }
        do throws(DPoPRefusal) {
            let request = DPoPRequest(method: presentation.method, uri: presentation.uri, accessToken: token)
            return try await dpop.verify(header, for: request, at: now)
        } catch {
            throw BearerRefusal(error)
        }
    }
}
