import Foundation

/// A DPoP proof JWT as sent in the `DPoP` header (RFC 9449 §4.2), decoded but not yet checked: the signature and
/// the claims are judged against the request by the server (`DPoPProofCheck`). Only the syntax and the header are checked
/// here: three base64url parts, JSON objects, `JOSEHeaderRules.dpopProof`, the required members with their JSON types.
public struct DPoPProof: Sendable, Hashable {
    /// The JOSE header's members a proof uses.
    public struct Header: Sendable, Hashable {
        public var type: String
        public var algorithm: String
        /// The public key, as sent (RFC 7517 members); a private member in it makes the proof invalid (§4.3).
        public var key: [String: JSONValue]
    }

    /// The claims of §4.2.
    public struct Claims: Sendable, Hashable {
        public var id: String
        public var method: String
        public var targetURI: String
        public var issuedAt: Int64
        /// `ath`: base64url SHA-256 of the access token, on requests to protected resources (§4.2, §7).
        public var accessTokenHash: String?
        public var nonce: String?
        /// Not part of a proof (§4.2), but judged by the one time rule when sent (RFC 7519 §4.1.4, §4.1.5).
        public var expiresAt: Int64?
        public var notBefore: Int64?

        public var times: JWTTimes { JWTTimes(expiresAt: expiresAt, notBefore: notBefore, issuedAt: issuedAt) }
    }

    public var header: Header
    public var claims: Claims
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers (RFC 7515 §5.2).
    public var signingInput: [UInt8]
    public var signature: [UInt8]

    /// Proofs are small (a key and six claims); 8 KiB leaves room for a 4096-bit RSA key.
    public static let defaultLimit = InputLimit(maxBytes: 8 * 1024)

    public init(parsing text: String, limit: InputLimit = Self.defaultLimit) throws(DPoPProofError) {
        do { try limit.check(text, what: "DPoP proof") } catch { throw .tooLarge(error) }
        do throws(JWTProblem) {
            let jwt = try CompactJWT(parsing: text, accepting: .dpopProof)
            header = Header(
                type: try jwt.header.jwtString("typ"), algorithm: try jwt.header.jwtString("alg"),
                key: try jwt.header.jwtObject("jwk"))
            claims = Claims(
                id: try jwt.payload.jwtString("jti"), method: try jwt.payload.jwtString("htm"),
                targetURI: try jwt.payload.jwtString("htu"),
                // RFC 7519 §2 NumericDate allows fractions; the whole seconds are what the window is judged on.
                issuedAt: try jwt.payload.jwtSeconds("iat"),
                accessTokenHash: try jwt.payload.jwtOptionalString("ath"), nonce: try jwt.payload.jwtOptionalString("nonce"),
                expiresAt: try jwt.payload.jwtOptionalSeconds("exp"), notBefore: try jwt.payload.jwtOptionalSeconds("nbf"))
            signingInput = jwt.signingInput
            signature = jwt.signature
        } catch {
            throw DPoPProofError(error)
        }
    }
}
