import SignInProtocol
/// Office reads one Bearer challenge; two leave it to guess which endpoints are meant.
struct SingleBearerCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.single-bearer", group: .challenge, level: .must, source: .appToApp("Service-side changes: the WWW-Authenticate header"),
        summary: "The 401 carries exactly one Bearer challenge, with parameters (not a token68)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let challenges: [AuthenticationChallenge]
        switch await session.generalChallenges() {
        case .success(let found): challenges = found
        case .failure(let failure): return .fail(failure.reason)
        }
        let bearers = challenges.filter { $0.hasScheme("Bearer") }
        switch bearers.count {
        case 0: return .fail("no Bearer challenge among \(challenges.map(\.scheme))")
        case 1 where bearers[0].token68 != nil: return .fail("the Bearer challenge has a token68 instead of parameters")
        case 1: return .pass("one Bearer challenge" + (challenges.count > 1 ? " beside \(challenges.count - 1) other(s)" : ""))
        default: return .fail("\(bearers.count) Bearer challenges")
        }
    }
}
