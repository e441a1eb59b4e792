import Crypto
import Foundation
import SignInProtocol

/// Writes an access token as an ES256 JWS in compact serialization (RFC 7515 §7.1; RFC 7518 §3.4: the signature is
/// R and S, 32 bytes each). Done here rather than through jwt-kit's `JWTKeyCollection.sign`, which goes through an
/// actor and `JSONEncoder` and cost more CPU per token request than the signature itself; jwt-kit still verifies
/// every token (`AccessTokenVerifier`) and publishes the JWKS, and the tests check one against the other.
struct AccessTokenSigner: Sendable {
    let privateKey: P256.Signing.PrivateKey
    /// The encoded protected header, fixed per key: `{"alg":"ES256","kid":…,"typ":"at+jwt"}` (RFC 9068 §2.1).
    let encodedHeader: String

    init(key: SigningKeySet.Key) {
        privateKey = key.signingKey
        let header = #"{"alg":"ES256","kid":"# + JSONText.quoted(key.kid) + #","typ":"at+jwt"}"#
        encodedHeader = Base64URL.encode(Array(header.utf8))
    }

    func sign(_ claims: AccessTokenClaims) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(Array(Self.payload(claims).utf8))
        let signature = try privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The claims as JSON; times are whole seconds (NumericDate, RFC 7519 §2).
    static func payload(_ claims: AccessTokenClaims) -> String {
        var members = [
            (#""iss":"#, JSONText.quoted(claims.iss.value)),
            (#""sub":"#, JSONText.quoted(claims.sub.value)),
            (#""aud":"#, claims.aud.value.count == 1
                ? JSONText.quoted(claims.aud.value[0])
                : "[" + claims.aud.value.map(JSONText.quoted).joined(separator: ",") + "]"),
            (#""exp":"#, String(Int64(claims.exp.value.timeIntervalSince1970.rounded(.down)))),
            (#""iat":"#, String(Int64(claims.iat.value.timeIntervalSince1970.rounded(.down)))),
            (#""jti":"#, JSONText.quoted(claims.jti.value)),
            (#""client_id":"#, JSONText.quoted(claims.client_id)),
        ]
        if let scope = claims.scope { members.append((#""scope":"#, JSONText.quoted(scope))) }
        return "{" + members.map { $0.0 + $0.1 }.joined(separator: ",") + "}"
    }
}
