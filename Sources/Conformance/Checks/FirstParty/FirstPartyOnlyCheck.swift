import SignInProtocol

/// Draft §5: "the Authorization Server MUST verify the first-partyness of the client before continuing": a
/// third-party client (the partner app's, or the app-to-app merchant's when the partner app is the first-party
/// client) with the user's correct password gets an error, never a code.
struct FirstPartyOnlyCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.third-party-refused", group: .firstparty, level: .must, source: FirstPartyApp.draft("§5", "Authorization Initiation"),
        summary: "The partner app's third-party client gets an error at the challenge endpoint, even with the right password")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        var target = try await FirstPartyApp.target(in: session)
        // The partner app's client, or the app-to-app merchant's when the partner app is the host's own app.
        let candidates = [session.options.publicClient?.id, session.options.appToAppClient?.id].compactMap { $0 }
        guard let thirdParty = candidates.first(where: { $0 != target.client.id }) else {
            return .skip("needs a third-party public client: --public-client-id or --app-to-app-client-id")
        }
        target.client = .init(id: thirdParty, secret: nil)
        let verifier = PKCE.Verifier.random()
        let answer = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: verifier, in: session) + FirstPartyApp.credentials(in: session),
            to: target, in: session, as: .attacker)
        if answer.code != nil || answer.response.status == 200 { return .fail("the third-party client got \(answer.summary)") }
        guard answer.error != nil else { return .fail("answered \(answer.response.status) without an OAuth error") }
        return .pass("refused: \(answer.summary)")
    }
}
