import SignInProtocol

/// RFC 9110 §11.2: each parameter name "MUST only occur once per challenge"; with two, clients pick different ones.
struct DuplicateParameterCheck: ConformanceCheck {
    static let id = "challenge.no-duplicate-parameter"
    static let group = CheckGroup.challenge
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(9110, "§11.2", "Authentication Parameters")
    static let summary = "No parameter name occurs twice in one challenge (names compared ignoring case)"

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
