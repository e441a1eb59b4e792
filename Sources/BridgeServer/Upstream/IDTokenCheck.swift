import BridgeStore
import Foundation
import SignInProtocol

/// The checks of OpenID Connect Core 1.0 §3.1.3.7 on an upstream ID token's header and claims, after its signature
/// was verified against the provider's JWKS (`RemoteKeySet`). Pure: the clock is passed in.
struct IDTokenCheck: Sendable {
    /// The provider's issuer, exactly as its discovery document says (item 2).
    var issuer: String
    /// Our client id at the provider (items 3-5).
    var clientID: String
    /// The digest of the nonce sent in the authorization request (item 11).
    var nonceDigest: TokenDigest
    var now: Date
    /// Tolerated clock difference for `exp`, `nbf` and `iat` (`JWTTimeRules`).
    var clockSkew: TimeInterval = 60
    /// An ID token issued longer ago than this is refused (item 10 lets the client bound `iat`).
    var maximumAge: TimeInterval = 600

    /// What the algorithm allowlist accepts: ES256 (what SignInBridge signs with) and RS256 (the default of item 7).
    static let algorithms: Set<String> = ["ES256", "RS256"]

    /// The header rule every accepted JWS goes through: no `typ` is defined for ID tokens, `alg` from `algorithms`,
    /// no `crit` (RFC 7515 §4.1.11).
    static let headerRules = JOSEHeaderRules(
        type: nil, section: "OpenID Connect Core 1.0 section 2", algorithms: algorithms.sorted())

    /// The JOSE header (RFC 7515 §4) of a compact JWS, checked by `headerRules`; its `kid` picks the key.
    static func header(of token: String) throws(IDTokenProblem) -> (alg: String, kid: String?) {
        guard token.utf8.count <= 16 * 1024 else { throw .malformed("not a compact JWS") }
        let jwt: CompactJWT
        do throws(JWTProblem) {
            jwt = try CompactJWT(parsing: token)
        } catch .notCompactJWS {
            throw .malformed("not a compact JWS")
        } catch {
            throw .malformed("the header is not a JSON object with alg")
        }
        let alg: String
        do throws(JWTProblem) {
            alg = try headerRules.check(jwt.header)
        } catch .invalid(member: "alg", _) {
            guard case .string(let named)? = jwt.header["alg"] else { throw .malformed("the header's alg is not a string") }
            throw .unsupportedAlgorithm(String(named.prefix(20)))
        } catch .invalid(let member, let reason) {
            throw .malformed("the header's \(member) \(reason)")
        } catch {
            throw .malformed("the header is not a JSON object with alg")
        }
        guard case .string(let kid)? = jwt.header["kid"] else { return (alg, nil) }
        return (alg, kid)
    }

    /// The payload's claims, unverified (call after the signature check), read by the one compact-JWT decoder.
    static func claims(of token: String) throws(IDTokenProblem) -> [String: ClaimValue] {
        guard let jwt = try? CompactJWT(parsing: token) else { throw .malformed("the payload is not a JSON object") }
        return jwt.payload.mapValues(ClaimValue.init)
    }

    /// Checks the claims; returns the subject.
    func check(_ claims: [String: ClaimValue]) throws(IDTokenProblem) -> String {
        guard claims["iss"]?.string == issuer else { throw .wrongIssuer(claims["iss"]?.string ?? "none") }
        let audiences = claims["aud"]?.strings ?? []
        guard audiences.contains(clientID) else { throw .wrongAudience }
        // Several audiences: the token must name us as the party it was issued to (items 4-5).
        if audiences.count > 1 || claims["azp"] != nil {
            guard claims["azp"]?.string == clientID else { throw .wrongAuthorizedParty }
        }
        guard let exp = claims["exp"]?.number, exp.isFinite, abs(exp) < 1e15 else { throw .malformed("no exp") }
        guard let iat = claims["iat"]?.number, iat.isFinite, abs(iat) < 1e15 else { throw .malformed("no iat") }
        let notBefore = claims["nbf"]?.number.flatMap { $0.isFinite && abs($0) < 1e15 ? Int64($0) : nil }
        do throws(JWTTimeProblem) {
            try JWTTimeRules(leeway: clockSkew, maximumAge: maximumAge)
                .check(JWTTimes(expiresAt: Int64(exp), notBefore: notBefore, issuedAt: Int64(iat)), at: now)
        } catch {
            switch error {
            case .expired: throw .expired
            case .notYetValid: throw .notYetValid
            case .issuedInTheFuture: throw .issuedInTheFuture
            case .issuedTooLongAgo: throw .issuedTooLongAgo
            }
        }
        guard let nonce = claims["nonce"]?.string, TokenDigest(of: nonce) == nonceDigest else { throw .nonceMismatch }
        // `sub`: at most 255 ASCII characters, never reassigned (OpenID Connect Core §2).
        guard let subject = claims["sub"]?.string, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .malformed("sub is missing or longer than 255 characters")
        }
        return subject
    }
}
