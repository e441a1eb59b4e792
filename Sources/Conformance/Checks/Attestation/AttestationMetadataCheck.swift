import SignInProtocol

/// draft-ietf-oauth-attestation-based-client-auth-11 §8: a host that takes the attestation PoP JWT names the
/// algorithms it verifies for both JWTs, so a client can tell beforehand whether its attestation will be understood.
struct AttestationMetadataCheck: ConformanceCheck {
    static let id = "attestation.metadata-algorithms"
    static let group = CheckGroup.attestation
    static let level = CheckLevel.must
    static let source = SourceCitation.attestationDraft("§8", "Authorization Server and Resource Server Metadata")
    static let summary =
        "A host advertising attest_jwt_client_auth lists client_attestation_signing_alg_values_supported and "
        + "client_attestation_pop_signing_alg_values_supported, without none"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let document = try await AttestationSupport.metadata(in: session)
        for member in ["client_attestation_signing_alg_values_supported", "client_attestation_pop_signing_alg_values_supported"] {
            guard case .array(let values)? = document[member] else { return .fail("the metadata has no \(member)") }
            let algorithms = values.compactMap(\.stringValue)
            guard !algorithms.isEmpty, algorithms.count == values.count, !algorithms.contains("none") else {
                return .fail("\(member) is not a non-empty array of algorithm names without none: \(values)")
            }
        }
        return .pass("both algorithm lists are advertised")
    }
}
