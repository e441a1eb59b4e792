import SignInProtocol

/// `tk` (where to redeem this code) must be an endpoint Office may call; `sc` is opaque and sent back as
/// `X-WOPI-SessionContext` with the token request, which the suite does.
struct SessionContextCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "authorize.tk-sc", group: .authorize, level: .must, source: .sessionContext("tk and sc in the final redirect"),
        summary: "tk, when the redirect has it, is an absolute https URI; sc is echoed back as X-WOPI-SessionContext at the token endpoint")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.office)
        let outcome = try await session.officeSignIn().orSkip()
        var notes = [String]()
        if let tk = outcome.parameters["tk"] {
            if let problem = session.endpointProblem(tk) { return .fail("tk: \(problem)") }
            notes.append("tk used as the token endpoint")
        }
        if outcome.parameters["sc"] != nil { notes.append("sc sent back as X-WOPI-SessionContext") }
        return .pass(notes.isEmpty ? "neither tk nor sc (both optional)" : notes.joined(separator: "; "))
    }
}
