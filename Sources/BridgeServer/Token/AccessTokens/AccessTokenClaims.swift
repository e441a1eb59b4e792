import Foundation
import JWTKit

/// The claims of an access token, per the JWT profile for OAuth 2.0 access tokens (RFC 9068 §2.2).
/// Signature, issuer, audience and expiry are checked by `AccessTokenVerifier` with an injected clock, so `verify`
/// here does nothing.
struct AccessTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var jti: IDClaim
    var client_id: String
    var scope: String?
    /// RFC 9449 §6.1: the thumbprint of the DPoP key the token is bound to; nil for a bearer token.
    var cnf: Confirmation? = nil

    /// The confirmation claim (RFC 7800 §3.1) with DPoP's `jkt` member.
    struct Confirmation: Codable, Equatable {
        var jkt: String
    }

    /// `DPoP` for a bound token, else `Bearer`: the `token_type` of its token response and introspection (§5, §6.2).
    var tokenType: String { cnf == nil ? "Bearer" : "DPoP" }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
