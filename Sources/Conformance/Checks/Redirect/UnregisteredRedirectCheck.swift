struct UnregisteredRedirectCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "redirect.unregistered", group: .redirect, level: .must, source: .rfc(6749, "§4.1.2.1", "Error Response"),
        summary: "An unregistered redirect_uri gets an error page, never a redirect to it")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RedirectProbe.judge("https://attacker.invalid/callback", in: session)
    }
}
