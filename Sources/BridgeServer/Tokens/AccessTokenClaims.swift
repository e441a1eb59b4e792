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

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
