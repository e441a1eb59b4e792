import SignInProtocol

/// The docs write every Office parameter as a quoted-string; clients written against them expect the quotes.
struct QuotedValuesCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.quoted-values", group: .challenge, level: .should, source: .appToApp("the WWW-Authenticate example"),
        summary: "authorization_uri, tokenIssuance_uri, providerId and UrlSchemes are sent as quoted-strings")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let values = try await session.challengeHeaderValues().orSkip()
        _ = try await session.generalChallenges().orSkip()
        let unquoted = BootstrapChallenge.senderIssues(headerValues: values).filter {
            if case .unquotedValue = $0 { return true }
            return false
        }
        return unquoted.isEmpty ? .pass("all quoted") : .fail(unquoted.map(\.description).joined(separator: "; "))
    }
}
