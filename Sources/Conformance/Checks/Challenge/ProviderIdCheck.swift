import SignInProtocol

/// `providerId` is the id Office registered for the host; the docs allow letters and digits.
struct ProviderIdCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.provider-id", group: .challenge, level: .must, source: .appToApp("providerId"),
        summary: "providerId is present and made of letters and digits ('_' is a warning: the docs' own examples use it)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let bearer = try await session.bearerChallenge().orSkip()
        guard let id = bearer[parameter: BootstrapChallenge.ParameterName.providerId] else {
            return .fail("providerId is missing: Office cannot match the host to its registration")
        }
        let letterOrDigit = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber) }
        if !id.isEmpty, id.allSatisfy(letterOrDigit) { return .pass("providerId \"\(id)\"") }
        if !id.isEmpty, id.allSatisfy({ letterOrDigit($0) || $0 == "_" }) {
            return .warn("providerId \"\(id)\" contains '_': the docs allow letters and digits only")
        }
        return .fail("providerId \"\(id)\" must be letters and digits")
    }
}
