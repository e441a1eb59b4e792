import Crypto

/// The JWK SHA-256 thumbprint of RFC 7638: the key's identity in DPoP's `cnf.jkt` and `dpop_jkt` (RFC 9449 §6.1,
/// §10). The hash covers only the members that define the key, in lexicographic order with no whitespace
/// (§3.2), so the same key always has the same thumbprint whatever else its JWK carries.
public enum JWKThumbprint {
    /// base64url(SHA-256(canonical JWK)); `DPoPProofError.invalid(member: "jwk", …)` when a required member of the
    /// key type is absent or not a string, or the key type is not one RFC 7518 §6 or RFC 8037 §2 defines.
    public static func sha256(of jwk: [String: JSONValue]) throws(DPoPProofError) -> String {
        Base64URL.encode(Array(SHA256.hash(data: try canonicalJSON(of: jwk))))
    }

    /// The bytes that are hashed (RFC 7638 §3.2), e.g. `{"crv":"P-256","kty":"EC","x":"…","y":"…"}`.
    public static func canonicalJSON(of jwk: [String: JSONValue]) throws(DPoPProofError) -> [UInt8] {
        guard case .string(let type)? = jwk["kty"] else {
            throw .invalid(member: "jwk", reason: "has no 'kty' string (RFC 7517 section 4.1)")
        }
        let required: [String]
        switch type {
        case "EC": required = ["crv", "kty", "x", "y"]  // RFC 7638 §3.2
        case "RSA": required = ["e", "kty", "n"]  // RFC 7638 §3.2
        case "OKP": required = ["crv", "kty", "x"]  // RFC 8037 §2
        default: throw .invalid(member: "jwk", reason: "has a key type this server does not know (kty)")
        }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in required.enumerated() {
            guard case .string(let value)? = jwk[name] else {
                throw .invalid(member: "jwk", reason: "has no '\(name)' string (RFC 7638 section 3.2)")
            }
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
