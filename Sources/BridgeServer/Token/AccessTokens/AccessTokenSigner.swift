import Foundation
import SignInProtocol

/// Writes an access token as an ES256 JWS with the `at+jwt` type (RFC 9068 §2.1) through `CompactJWSSigner`.
struct AccessTokenSigner: Sendable {
    let signer: CompactJWSSigner

    init(key: SigningKeySet.Key) {
        signer = CompactJWSSigner(es256: key, type: "at+jwt")
    }

    func sign(_ claims: AccessTokenClaims) throws -> String {
        try signer.sign(payload: Self.payload(claims).utf8)
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
        if let cnf = claims.cnf { members.append((#""cnf":"#, #"{"jkt":"# + JSONText.quoted(cnf.jkt) + "}")) }
        return "{" + members.map { $0.0 + $0.1 }.joined(separator: ",") + "}"
    }
}
