/// RFC 6749 §4.1.2: "If an authorization code is used more than once, the authorization server MUST deny the
/// request".
struct CodeReuseRefusedCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "code.reuse-refused", group: .code, level: .must, source: .rfc(6749, "§4.1.2", "Authorization Response"),
        summary: "A code redeemed a second time is refused with 400 invalid_grant")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let reuse = try await CodeReuse.run(in: session).orSkip()
        if reuse.second.response.status == 400, reuse.second.error == "invalid_grant" { return .pass("400 invalid_grant") }
        return .fail("the second redemption answered \(reuse.second.summary)")
    }
}
