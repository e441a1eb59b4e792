/// draft-ietf-oauth-attestation-based-client-auth-11 §7.1: the attestation's signature verifies with the key of a
/// known and trusted attester; one signed by any other key authenticates nobody, however right its PoP.
struct AttestationUntrustedAttesterCheck: ConformanceCheck {
    static let id = "attestation.untrusted-attester"
    static let group = CheckGroup.attestation
    static let level = CheckLevel.must
    static let source = SourceCitation.attestationDraft("§7.1", "Client Attestation JWT verification")
    static let summary =
        "A token request with an attestation signed by a key the host cannot trust is refused with invalid_client or "
        + "invalid_client_attestation, and gets no access token"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let response = try await AttestationSupport.untrustedTokenRequest(in: session)
        let json = JSONObject.parse(response.body)
        let error = json?["error"]?.stringValue
        if json?["access_token"] != nil { return .fail("the host issued an access token (\(response.status))") }
        // §7.4: invalid_client_attestation may be used in addition to RFC 6749's invalid_client.
        guard [400, 401].contains(response.status), ["invalid_client", "invalid_client_attestation"].contains(error) else {
            return .fail("refused with \(response.status) \(error ?? "(no error)"), not invalid_client(_attestation)")
        }
        return .pass("refused: \(response.status) \(error ?? "")")
    }
}
