import SignInProtocol

/// OpenID Connect Discovery 1.0 §3: the REQUIRED provider metadata, RS256 among the ID token algorithms (the one
/// every relying party can verify), and §4.3: `issuer` identical to the URL discovery was read for.
struct DiscoveryRequiredCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "openid.discovery", group: .openid, level: .must, source: .openID("discovery", "§3 (Provider Metadata)", anchor: "ProviderMetadata"),
        summary: "openid-configuration has issuer, authorization_endpoint, token_endpoint, jwks_uri, response_types_supported, subject_types_supported and RS256 in id_token_signing_alg_values_supported")

    static let required = [
        "issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported",
        "subject_types_supported", "id_token_signing_alg_values_supported",
    ]

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let metadata = try await OpenIDSignIn.discovery(in: session)
        var problems = Self.required.filter { metadata[$0] == nil }.map { "\($0) is missing" }
        if case .array(let algorithms) = metadata["id_token_signing_alg_values_supported"], !algorithms.contains(.string("RS256")) {
            problems.append("id_token_signing_alg_values_supported \(algorithms.compactMap(\.stringValue)) lacks RS256")
        }
        if let issuer = metadata["issuer"]?.stringValue, let expected = session.options.issuer,
            issuer != expected && issuer + "/" != expected
        {
            problems.append("issuer \(issuer) is not the --issuer \(expected) (§4.3)")
        }
        return problems.isEmpty ? .pass("every REQUIRED member, RS256 listed") : .fail(problems.joined(separator: "; "))
    }
}
