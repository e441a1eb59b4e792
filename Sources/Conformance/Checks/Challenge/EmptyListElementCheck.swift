import SignInProtocol

/// RFC 9110 §5.6.1: "a sender MUST NOT generate empty list elements". Our parser accepts them as a recipient must;
/// this check holds the host to the sender's rule.
struct EmptyListElementCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.no-empty-elements", group: .challenge, level: .must, source: .rfc(9110, "§5.6.1", "Lists"),
        summary: "WWW-Authenticate has no empty list element: no leading, doubled or trailing comma")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let values = try await session.challengeHeaderValues().orSkip()
        _ = try await session.generalChallenges().orSkip()
        let empty = BootstrapChallenge.senderIssues(headerValues: values).filter {
            if case .emptyListElement = $0 { return true }
            return false
        }
        return empty.isEmpty ? .pass("no empty list element") : .fail(empty.map(\.description).joined(separator: "; "))
    }
}
