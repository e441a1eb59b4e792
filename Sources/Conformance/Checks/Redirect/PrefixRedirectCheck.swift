/// RFC 9700 §4.1.3: redirect URIs are compared by exact string match; a prefix match lets an attacker register
/// `https://localhost.attacker.example` or a path below the real one.
struct PrefixRedirectCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "redirect.prefix-match", group: .redirect, level: .must, source: .rfc(9700, "§4.1.3", "Countermeasures: exact redirect URI matching"),
        summary: "The registered redirect URI extended by a host suffix or a path is refused (exact matching)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let office = try session.options.required(.office)
        let base = URLParts.base(office.redirectURI)
        for probe in [base + ".attacker.invalid", base + "/conform-extra"] {
            let outcome = try await RedirectProbe.judge(probe, in: session)
            if case .fail = outcome { return outcome }
            if case .skip = outcome { return outcome }
        }
        return .pass("suffix and path extensions of \(office.redirectURI) refused")
    }
}
