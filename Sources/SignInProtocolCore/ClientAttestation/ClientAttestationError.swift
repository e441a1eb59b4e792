/// Why an `OAuth-Client-Attestation` or `OAuth-Client-Attestation-PoP` header is not usable
/// (draft-ietf-oauth-attestation-based-client-auth-11 §4, §5.1). Names the JWT and the part or member that was wrong,
/// never the value sent, so the text can go into an `error_description` as it is.
public struct ClientAttestationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the two JWTs.
    public enum JWT: String, Sendable, Hashable {
        case attestation = "client attestation"
        case proofOfPossession = "client attestation PoP"
    }

    public enum Problem: Sendable, Hashable {
        case tooLarge(InputTooLarge)
        case jwt(JWTProblem)
    }

    public var jwt: JWT
    public var problem: Problem

    public init(_ jwt: JWT, _ problem: Problem) {
        self.jwt = jwt
        self.problem = problem
    }

    public init(_ jwt: JWT, _ problem: JWTProblem) {
        self.init(jwt, .jwt(problem))
    }

    public var description: String {
        switch problem {
        case .tooLarge(let error): "\(jwt.rawValue): \(error)"
        case .jwt(.notCompactJWS): "\(jwt.rawValue) is not a compact JWS (RFC 7515 section 7.1)"
        case .jwt(.malformed(let part)): "\(jwt.rawValue) \(part) is not base64url-encoded JSON"
        case .jwt(.missing(let member)): "\(jwt.rawValue) has no '\(member)'"
        case .jwt(.invalid(let member, let reason)): "\(jwt.rawValue) '\(member)' \(reason)"
        }
    }
}
