/// The names of attestation-based client authentication (draft-ietf-oauth-attestation-based-client-auth-11):
/// the two request header fields (§4, §5.1), the JWT types that tell the two JWTs from any other (§4, §5.1) and
/// the token endpoint authentication method (§8).
public enum ClientAttestationNames {
    /// The header field carrying the Client Attestation JWT (§4).
    public static let attestationHeader = "OAuth-Client-Attestation"
    /// The header field carrying the Client Attestation PoP JWT (§5.1).
    public static let proofOfPossessionHeader = "OAuth-Client-Attestation-PoP"
    /// `typ` of the Client Attestation JWT (§4).
    public static let attestationType = "oauth-client-attestation+jwt"
    /// `typ` of the Client Attestation PoP JWT (§5.1).
    public static let proofOfPossessionType = "oauth-client-attestation-pop+jwt"
    /// The `token_endpoint_auth_methods_supported` value (§8) and `AuthenticatedClient.method`.
    public static let authenticationMethod = "attest_jwt_client_auth"
}
