/// Why a `DPoP` header is not a usable proof (RFC 9449 §4.3). Each case names the part or member that was wrong,
/// never the value sent, so the text can go into an `error_description` as it is.
public enum DPoPProofError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    /// Not three base64url parts separated by dots (RFC 7515 §7.1).
    case notCompactJWS
    /// `part` ("header", "payload" or "signature") is not base64url, or not a JSON object.
    case malformed(part: String)
    /// A required member is absent (RFC 9449 §4.2): `typ`, `alg`, `jwk`, `jti`, `htm`, `htu`, `iat`.
    case missing(member: String)
    /// A member has the wrong JSON type, or a value the member does not allow.
    case invalid(member: String, reason: String)

    public var description: String {
        switch self {
        case .tooLarge(let error): "DPoP proof: \(error)"
        case .notCompactJWS: "DPoP proof is not a compact JWS (RFC 7515 section 7.1)"
        case .malformed(let part): "DPoP proof \(part) is not base64url-encoded JSON"
        case .missing(let member): "DPoP proof has no '\(member)' (RFC 9449 section 4.2)"
        case .invalid(let member, let reason): "DPoP proof '\(member)' \(reason)"
        }
    }

    init(_ problem: JWTProblem) {
        switch problem {
        case .notCompactJWS: self = .notCompactJWS
        case .malformed(let part): self = .malformed(part: part)
        case .missing(let member): self = .missing(member: member)
        case .invalid(let member, let reason): self = .invalid(member: member, reason: reason)
        }
    }

    /// The OAuth error for the token endpoint and resources (RFC 9449 §5, §7.1).
    public var oauthError: OAuthError { OAuthError(.invalidDPoPProof, description: description) }
}
