/// RFC 9700 §4.1.3: exact string matching; a host that ignores an added query parameter lets an attacker steer the
/// client's redirect handler (an open redirect on the client becomes a code leak).
struct ExtraQueryRedirectCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "redirect.extra-query", group: .redirect, level: .must, source: .rfc(9700, "§4.1.3", "Countermeasures: exact redirect URI matching"),
        summary: "The registered redirect URI with an added query parameter is refused, never redirected to")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let office = try session.options.required(.office)
        return try await RedirectProbe.judge(URLParts.appending([("next", "https://attacker.invalid/")], to: office.redirectURI), in: session)
    }
}
