/// RFC 6749 §4.1.2: `state` comes back exactly as sent; Office compares it to stop cross-site request forgery.
struct StateEchoCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "authorize.state-echoed", group: .authorize, level: .must, source: .rfc(6749, "§4.1.2", "Authorization Response"),
        summary: "The redirect carries state exactly as Office sent it")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.office)
        let outcome = try await session.officeSignIn().orSkip()
        guard let state = outcome.parameters["state"] else { return .fail("the redirect has no state") }
        return state == outcome.sentState ? .pass("state echoed") : .fail("state came back as \"\(state)\", sent \"\(outcome.sentState)\"")
    }
}
