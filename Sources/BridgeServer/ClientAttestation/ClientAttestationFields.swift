import HTTPTypes
import SignInProtocol

extension HTTPField.Name {
    /// draft-ietf-oauth-attestation-based-client-auth-11 §4: the Client Attestation JWT.
    static let oauthClientAttestation = Self(ClientAttestationNames.attestationHeader)!
    /// draft-ietf-oauth-attestation-based-client-auth-11 §5.1: the Client Attestation PoP JWT.
    static let oauthClientAttestationPoP = Self(ClientAttestationNames.proofOfPossessionHeader)!
}
