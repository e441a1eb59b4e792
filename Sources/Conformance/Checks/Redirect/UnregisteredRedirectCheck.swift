struct UnregisteredRedirectCheck: ConformanceCheck {
    static let id = "redirect.unregistered"
    static let group = CheckGroup.redirect
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(6749, "§4.1.2.1", "Error Response")
    static let summary = "An unregistered redirect_uri gets an error page, never a redirect to it"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RedirectProbe.judge("https://attacker.invalid/callback", in: session)
    }
}
