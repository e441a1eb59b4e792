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
        case .storeFault: self = .request(.serverFault)
        }
    }
}
