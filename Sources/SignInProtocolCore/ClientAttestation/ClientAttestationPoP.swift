/// A Client Attestation PoP JWT as sent in `OAuth-Client-Attestation-PoP`
/// (draft-ietf-oauth-attestation-based-client-auth-11 §5.1), decoded but not yet verified: the server checks the
/// signature with the attestation's `cnf` key, `aud` against its issuer, `iat` against its clock and `jti` against
/// the PoPs it has seen. Checked here: the compact form, the header (`JOSEHeaderRules.clientAttestationPoP`), and the required members with their JSON types.
public struct ClientAttestationPoP: Sendable, Hashable {
    public struct Claims: Sendable, Hashable {
        /// `aud`: one string, or an array of strings (RFC 7519 §4.1.3); the server must be among them.
        public var audience: [String]
        public var id: String
        public var issuedAt: Int64
        /// Not required by §5.1; when present, the client_id (as earlier revisions of the draft required).
        public var issuer: String?
        public var expiresAt: Int64?
        /// RFC 7519 §4.1.5: not accepted before this.
        public var notBefore: Int64?
        /// A server-provided challenge (§6).
        public var challenge: String?

        /// `exp`, `nbf` and `iat`, for `JWTTimeRules`.
        public var times: JWTTimes { JWTTimes(expiresAt: expiresAt, notBefore: notBefore, issuedAt: issuedAt) }
    }

    public var algorithm: String
    public var claims: Claims
    public var signingInput: [UInt8]
    public var signature: [UInt8]

    /// A PoP is a header and five short claims; 8 KiB is far above any real one.
    public static let defaultLimit = InputLimit(maxBytes: 8 * 1024)

    public init(parsing text: String, limit: InputLimit = Self.defaultLimit) throws(ClientAttestationError) {
        do { try limit.check(text, what: ClientAttestationNames.proofOfPossessionHeader) } catch {
            throw ClientAttestationError(.proofOfPossession, .tooLarge(error))
        }
        do throws(JWTProblem) {
            let jwt = try CompactJWT(parsing: text, accepting: .clientAttestationPoP)
            algorithm = try jwt.header.jwtString("alg")
            let audience = try jwt.payload.jwtMember("aud", as: "a string or an array of strings", Self.audience)
            claims = Claims(
                audience: audience, id: try jwt.payload.jwtString("jti"), issuedAt: try jwt.payload.jwtSeconds("iat"),
                issuer: try jwt.payload.jwtOptionalString("iss"), expiresAt: try jwt.payload.jwtOptionalSeconds("exp"),
                notBefore: try jwt.payload.jwtOptionalSeconds("nbf"),
                challenge: try jwt.payload.jwtOptionalString("challenge"))
            signingInput = jwt.signingInput
            signature = jwt.signature
        } catch {
            throw ClientAttestationError(.proofOfPossession, error)
        }
    }

    /// RFC 7519 §4.1.3: one non-empty string, or a non-empty array of them.
    private static func audience(_ value: JSONValue) -> [String]? {
        switch value {
        case .string(let one) where !one.isEmpty: return [one]
        case .array(let many) where !many.isEmpty:
            let strings = many.compactMap { item -> String? in
                if case .string(let text) = item, !text.isEmpty { return text }
                return nil
            }
            return strings.count == many.count ? strings : nil
        default: return nil
        }
    }
}
