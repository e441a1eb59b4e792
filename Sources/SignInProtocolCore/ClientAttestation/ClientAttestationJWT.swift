/// A Client Attestation JWT as sent in `OAuth-Client-Attestation` (draft-ietf-oauth-attestation-based-client-auth-11
/// §4), decoded but not yet verified: the server checks the signature against a trusted attester's key and the
/// times against its clock. Checked here: the compact form, the header (`JOSEHeaderRules.clientAttestation`), and the required members with their JSON types.
public struct ClientAttestationJWT: Sendable, Hashable {
    public struct Header: Sendable, Hashable {
        public var algorithm: String
        /// Selects the attester's key when it has several (RFC 7515 §4.1.4).
        public var keyID: String?
    }

    public struct Claims: Sendable, Hashable {
        /// The attester; not required by §4, and when present it names the configured attester to verify with.
        public var issuer: String?
        /// `sub`: the client_id of the OAuth client (§4).
        public var subject: String
        public var expiresAt: Int64
        public var issuedAt: Int64?
        public var notBefore: Int64?
        /// `exp`, `nbf` and `iat`, for `JWTTimeRules`.
        public var times: JWTTimes { JWTTimes(expiresAt: expiresAt, notBefore: notBefore, issuedAt: issuedAt) }
        /// `cnf.jwk` (RFC 7800 §3.2): the Client Instance Key, which signs the PoP (§4).
        public var confirmationKey: [String: JSONValue]
    }

    public var header: Header
    public var claims: Claims
    public var signingInput: [UInt8]
    public var signature: [UInt8]

    /// An attestation carries one key and a few claims, or an `x5c` chain; 16 KiB leaves room for a chain of three
    /// RSA certificates (§9.5 notes servers' header limits of 8 kB or more).
    public static let defaultLimit = InputLimit(maxBytes: 16 * 1024)

    public init(parsing text: String, limit: InputLimit = Self.defaultLimit) throws(ClientAttestationError) {
        do { try limit.check(text, what: ClientAttestationNames.attestationHeader) } catch {
            throw ClientAttestationError(.attestation, .tooLarge(error))
        }
        do throws(JWTProblem) {
            let jwt = try CompactJWT(parsing: text, accepting: .clientAttestation)
            header = Header(algorithm: try jwt.header.jwtString("alg"), keyID: try jwt.header.jwtOptionalString("kid"))
            let confirmation = try jwt.payload.jwtObject("cnf")
            guard case .object(let key)? = confirmation["jwk"] else {
                throw .missing(member: "cnf.jwk")
            }
            claims = Claims(
                issuer: try jwt.payload.jwtOptionalString("iss"), subject: try jwt.payload.jwtString("sub"),
                expiresAt: try jwt.payload.jwtSeconds("exp"), issuedAt: try jwt.payload.jwtOptionalSeconds("iat"),
                notBefore: try jwt.payload.jwtOptionalSeconds("nbf"), confirmationKey: key)
            signingInput = jwt.signingInput
            signature = jwt.signature
        } catch {
            throw ClientAttestationError(.attestation, error)
        }
    }
}
