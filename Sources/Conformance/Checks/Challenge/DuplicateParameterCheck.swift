import SignInProtocol

/// RFC 9110 §11.2: each parameter name "MUST only occur once per challenge"; with two, clients pick different ones.
struct DuplicateParameterCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.no-duplicate-parameter", group: .challenge, level: .must, source: .rfc(9110, "§11.2", "Authentication Parameters"),
        summary: "No parameter name occurs twice in one challenge (names compared ignoring case)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let values = try await session.challengeHeaderValues().orSkip()
        do {
            _ = try AuthenticationChallenge.parse(headerValues: values)
            return .pass("every parameter occurs once")
        } catch {
            if case .duplicateParameter = error { return .fail("\(error)") }
            return .skip("WWW-Authenticate does not parse: \(error)")
        }
    }
}
