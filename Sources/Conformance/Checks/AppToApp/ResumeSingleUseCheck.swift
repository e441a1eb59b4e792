import SignInProtocol

/// `resume_uri` continues one approved login in the merchant's browser tab, once: opened a second time it must not
/// lead to a second authorization code, or whoever sees the link (a log, a shared screen) signs in as the user.
struct ResumeSingleUseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "apptoapp.resume-single-use", group: .apptoapp, level: .must, source: SourceCitation(
            title: "Vipps MobilePay Login API, Integrate from a mobile app (resume_uri); RFC 6749 §10.5 (codes single use)",
            url: "https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/app-integration/"),
        summary: "resume_uri of an approved app_to_app request leads to a code once; opened a second time, to none")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let client = try session.options.required(.appToAppClient)
        let approved = try await HostAppApproval.approve(in: session)
        let driver = SignInDriver(session: session, party: .partnerApp)
        func open() async -> Result<SignInOutcome, StepFailure> {
            await driver.follow(from: approved.resumeURI, state: approved.state, redirectURI: client.redirectURI)
        }
        let first = await open()
        guard case .success(let outcome) = first, outcome.code != nil else {
            let why = first.value.map { "no code (\($0.parameters["error"] ?? "no error"))" } ?? first.reason
            throw CheckSkipped("the first opening of resume_uri did not lead to a code: \(why)")
        }
        switch await open() {
        case .success(let again) where again.code != nil:
            return .fail("opened a second time, resume_uri led to a second code")
        case .success(let again): return .pass("second opening: \(again.parameters["error"].map { "error=" + $0 } ?? "no code")")
        case .failure(let failure) where failure.unanswered: return .skip("the second opening got no answer: \(failure.reason)")
        case .failure(let failure): return .pass("second opening refused (\(failure.reason))")
        }
    }
}

