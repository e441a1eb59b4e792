import SignInProtocol

/// Office signs in at `authorization_uri` and redeems at `tokenIssuance_uri`; both are OAuth endpoints that must be
/// absolute and on TLS (RFC 6749 §3.1, §3.2).
struct EndpointsCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.endpoints", group: .challenge, level: .must, source: .appToApp("authorization_uri and tokenIssuance_uri"),
        summary: "authorization_uri and tokenIssuance_uri are present, absolute https URIs (http only on loopback with --insecure-http-loopback)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let bearer = try await session.bearerChallenge().orSkip()
        var problems = [String]()
        for name in [BootstrapChallenge.ParameterName.authorizationURI, BootstrapChallenge.ParameterName.tokenIssuanceURI] {
            guard let value = bearer[parameter: name] else {
                problems.append("\(name) is missing")
                continue
            }
            if let problem = session.endpointProblem(value) { problems.append("\(name): \(problem)") }
        }
        return problems.isEmpty ? .pass("both endpoints are absolute and allowed") : .fail(problems.joined(separator: "; "))
    }
}
