import BridgeStore
import Foundation
import SignInProtocol

/// Why an ID token was refused; the log line and the tests name it.
enum IDTokenProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    case unsupportedAlgorithm(String)
    /// No key of the JWKS has the token's `kid`, even after fetching the JWKS again.
    case unknownKey
    case badSignature
    case wrongIssuer(String)
    case wrongAudience
    case wrongAuthorizedParty
    case expired
    case notYetValid
    case issuedInTheFuture
    case issuedTooLongAgo
    case nonceMismatch

    var description: String {
        switch self {
        case .malformed(let what): "malformed ID token: \(what)"
        case .unsupportedAlgorithm(let alg): "ID token algorithm \(alg) is not ES256 or RS256"
        case .unknownKey: "ID token signed with a key not in the provider's JWKS"
        case .badSignature: "ID token signature does not verify"
        case .wrongIssuer(let iss): "ID token from another issuer (\(iss.prefix(80)))"
        case .wrongAudience: "ID token for another audience"
        case .wrongAuthorizedParty: "ID token azp is not our client"
        case .expired: "ID token expired"
        case .notYetValid: "ID token not valid yet (nbf)"
        case .issuedInTheFuture: "ID token issued in the future"
        case .issuedTooLongAgo: "ID token issued too long ago"
        case .nonceMismatch: "ID token nonce does not match"
        }
    }
}
