import SignInProtocol
import Testing

@Suite("ClientProfile")
struct ClientProfileTests {
    let policy = RedirectURIPolicy()

    @Test func officeMayRegisterItsStopURLWithoutAWarning() {
        let office = policy.assessRegistration("https://localhost", for: .web, profile: .office)
        #expect(office.problems.isEmpty)
        let strict = policy.assessRegistration("https://localhost", for: .web)
        #expect(strict.warnings == [.loopbackForWebClient])
    }

    /// Only the stop URL byte for byte: the profile is not a general localhost (or http) exemption.
    @Test(arguments: ["https://localhost/", "https://LOCALHOST", "https://localhost:443", "http://localhost", "https://localhost/cb"])
    func anythingElseOnLocalhostKeepsTheStrictRule(uri: String) {
        let assessment = policy.assessRegistration(uri, for: .web, profile: .office)
        #expect(assessment.warnings.contains(.loopbackForWebClient), "\(assessment.problems)")
    }

    @Test(arguments: ["http://files.example/cb", "https://127.0.0.1/cb", "https://localhost.evil.example", "com.example.app:/cb"])
    func officeGetsNoOtherExemption(uri: String) {
        #expect(
            policy.assessRegistration(uri, for: .web, profile: .office).problems
                == policy.assessRegistration(uri, for: .web).problems)
    }
}
