/// The one rule for the JOSE header of every JWS this server accepts (DPoP proofs, client attestations and their
/// PoPs, upstream ID tokens): the exact `typ`, an asymmetric `alg` from an allowlist, and no `crit`.
public struct JOSEHeaderRules: Sendable, Hashable {
    /// The exact `typ` (RFC 8725 §3.11: explicit typing keeps one kind of JWT from passing for another); nil for a
    /// JWS whose profile defines none (an OpenID Connect ID token).
    public var type: String?
    /// Where `type` is defined, cited when it is wrong.
    public var section: String
    /// The accepted `alg` values (RFC 8725 §3.1); `none` and the symmetric `HS*` never pass, whatever the list.
    public var algorithms: [String]

    /// The asymmetric algorithms this server verifies, in its order of preference (RFC 9449 §4.3 step 5, §5.1).
    public static let asymmetricAlgorithms = ["ES256", "RS256", "PS256", "ES384", "EdDSA"]

    public init(type: String?, section: String, algorithms: [String] = Self.asymmetricAlgorithms) {
        self.type = type
        self.section = section
        self.algorithms = algorithms
    }

    /// `typ`, then `alg`, then `crit`; returns `alg`.
    @discardableResult
    public func check(_ header: [String: JSONValue]) throws(JWTProblem) -> String {
        if let type, try header.jwtString("typ") != type {
            throw .invalid(member: "typ", reason: "is not '\(type)' (\(section))")
        }
        let algorithm = try header.jwtString("alg")
        // RFC 8725 §3.1 and §3.2: no unsecured JWS, and no MAC keyed with what could be a public key.
        guard algorithm != "none", !algorithm.hasPrefix("HS"), algorithms.contains(algorithm) else {
            throw .invalid(member: "alg", reason: "is not an asymmetric algorithm this server accepts (RFC 8725 section 3.1)")
        }
        if let critical = header["crit"] {
            // RFC 7515 §4.1.11: a non-empty array of names; one the recipient does not understand (this server
            // understands none) makes the JWS invalid.
            guard case .array(let names) = critical, !names.isEmpty,
                names.allSatisfy({ if case .string(let name) = $0 { !name.isEmpty } else { false } })
            else {
                throw .invalid(member: "crit", reason: "is not a non-empty array of names (RFC 7515 section 4.1.11)")
            }
            throw .invalid(member: "crit", reason: "names an extension this server does not understand (RFC 7515 section 4.1.11)")
        }
        return algorithm
    }
}

extension JOSEHeaderRules {
    /// RFC 9449 §4.2, §4.3 step 4.
    public static let dpopProof = JOSEHeaderRules(type: "dpop+jwt", section: "RFC 9449 section 4.2")
    /// draft-ietf-oauth-attestation-based-client-auth-11 §4.
    public static let clientAttestation = JOSEHeaderRules(
        type: ClientAttestationNames.attestationType, section: "section 4")
    /// draft-ietf-oauth-attestation-based-client-auth-11 §5.1.
    public static let clientAttestationPoP = JOSEHeaderRules(
        type: ClientAttestationNames.proofOfPossessionType, section: "section 5.1")
}
