import Foundation
import SignInProtocol

/// Why an external token was refused. Every case but `unavailable` is the token's fault (401 `invalid_token`);
/// `unavailable` is the provider's (503 `temporarily_unavailable`).
public enum ExternalTokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    case unknownKey
    case badSignature
    case wrongIssuer
    case wrongAudience
    case wrongTokenType
    case time(JWTTimeProblem)
    case missingScope
    case missingClaim(String)
    /// Introspection said `active: false` (RFC 7662 §2.2).
    case inactive
    case unavailable(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed token: \(why)"
        case .unknownKey: "signed with a key not in the provider's JWKS"
        case .badSignature: "the signature does not verify"
        case .wrongIssuer: "iss is not the provider's"
        case .wrongAudience: "aud does not name the configured audience"
        case .wrongTokenType: "the token is not an access token of this profile (typ)"
        case .time(let problem): problem.description
        case .missingScope: "the required scope is missing"
        case .missingClaim(let name): "the \(name.prefix(64)) claim is missing or not a string"
        case .inactive: "introspection says the token is not active"
        case .unavailable(let why): "the provider cannot be asked now: \(why)"
        }
    }
}
