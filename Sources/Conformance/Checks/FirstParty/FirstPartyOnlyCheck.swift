import SignInProtocol

/// Draft §5: "the Authorization Server MUST verify the first-partyness of the client before continuing": a
/// third-party client (the partner app's) with the user's correct password gets an error, never a code.
struct FirstPartyOnlyCheck: ConformanceCheck {
    static let id = "firstparty.third-party-refused"
    static let group = CheckGroup.firstparty
    static let level = CheckLevel.must
    static let source = FirstPartyApp.draft("§5", "Authorization Initiation")
    static let summary = "The partner app's third-party client gets an error at the challenge endpoint, even with the right password"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        var target = try await FirstPartyApp.target(in: session)
        guard let partner = session.options.publicClient else { return .skip("needs --public-client-id and --public-redirect-uri") }
        guard partner.id != target.client.id else { return .skip("--public-client-id names the first-party client") }
        target.client = .init(id: partner.id, secret: nil)
        let verifier = PKCE.Verifier.random()
        let answer = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: verifier, in: session) + FirstPartyApp.credentials(in: session),
            to: target, in: session, as: .attacker)
        if answer.code != nil || answer.response.status == 200 { return .fail("the third-party client got \(answer.summary)") }
        guard answer.error != nil else { return .fail("answered \(answer.response.status) without an OAuth error") }
        return .pass("refused: \(answer.summary)")
    }
}
