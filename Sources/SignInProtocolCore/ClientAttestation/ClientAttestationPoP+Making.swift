/// The client instance's side of §5.1 (draft-ietf-oauth-attestation-based-client-auth-11): the bytes it signs with
/// its instance key (the Secure Enclave or StrongBox key whose public half the attestation's `cnf` names), then the
/// header value. The signing itself is the app's, so no key ever passes through this package.
extension ClientAttestationPoP {
    /// `BASE64URL(header) '.' BASE64URL(claims)` (RFC 7515 §5.1): `typ` and `alg` in the header; `aud` (the
    /// authorization server's issuer), `jti` (new for every request), `iat` and, when the server handed one out,
    /// `challenge` in the claims.
    public static func signingInput(
        audience: String, id: String, issuedAt: Int64, challenge: String? = nil, algorithm: String = "ES256"
    ) -> String {
        let header: [String: JSONValue] = [
            "typ": .string(ClientAttestationNames.proofOfPossessionType), "alg": .string(algorithm),
        ]
        var claims: [String: JSONValue] = ["aud": .string(audience), "jti": .string(id), "iat": .integer(issuedAt)]
        if let challenge { claims["challenge"] = .string(challenge) }
        return Base64URL.encode(JSONValue.object(header).compactJSON) + "." + Base64URL.encode(JSONValue.object(claims).compactJSON)
    }

    /// The `OAuth-Client-Attestation-PoP` value: the signing input and the signature (for ES256 the 64 bytes of R and
    /// S, RFC 7518 §3.4).
    public static func compact(signingInput: String, signature: [UInt8]) -> String {
        signingInput + "." + Base64URL.encode(signature)
    }
}
