import Crypto

/// The JWK SHA-256 thumbprint of RFC 7638: the key's identity in DPoP's `cnf.jkt` and `dpop_jkt` (RFC 9449 §6.1,
/// §10). The hash covers only the members that define the key, in lexicographic order with no whitespace
/// (§3.2), so the same key always has the same thumbprint whatever else its JWK carries.
public enum JWKThumbprint {
    /// base64url(SHA-256(canonical JWK)); `DPoPProofError.invalid(member: "jwk", …)` when a required member of the
    /// key type is absent or not a string, or the key type is not one RFC 7518 §6 or RFC 8037 §2 defines.
    public static func sha256(of jwk: [String: JSONValue]) throws(DPoPProofError) -> String {
        hash(try canonicalJSON(of: jwk))
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
        var members: [(String, String)] = []
        for name in required {
            guard case .string(let value)? = jwk[name] else {
                throw .invalid(member: "jwk", reason: "has no '\(name)' string (RFC 7638 section 3.2)")
            }
            members.append((name, value))
        }
        return canonicalJSON(members)
    }

    /// The thumbprint of a P-256 public key from its base64url coordinates (RFC 7638 §3.2: crv, kty, x, y).
    public static func sha256(p256X x: String, y: String) -> String {
        hash(canonicalJSON([("crv", "P-256"), ("kty", "EC"), ("x", x), ("y", y)]))
    }

    /// The thumbprint of an RSA public key from its base64url modulus and exponent (RFC 7638 §3.2: e, kty, n).
    public static func sha256(rsaModulus n: String, exponent e: String) -> String {
        hash(canonicalJSON([("e", e), ("kty", "RSA"), ("n", n)]))
    }

    private static func hash(_ bytes: [UInt8]) -> String { Base64URL.encode(Array(SHA256.hash(data: bytes))) }

    /// The members, already in lexicographic order, as one JSON object with no whitespace (RFC 7638 §3.2).
    private static func canonicalJSON(_ members: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, (name, value)) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
