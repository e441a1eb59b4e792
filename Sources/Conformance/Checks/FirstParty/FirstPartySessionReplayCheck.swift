import SignInProtocol

/// Draft §5.3.1: an `auth_session` associates a client's steps like a cookie, and each answer may carry
/// a new one; one whose step already led to a code SHOULD not lead to a second (a stolen value replayed).
struct FirstPartySessionReplayCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.session-replay", group: .firstparty, level: .should, source: FirstPartyApp.draft("§5.3.1", "Auth Session"),
        summary: "An auth_session that already led to a code gives no second code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await FirstPartyApp.target(in: session)
        let user = try session.options.required(.user)
        let verifier = PKCE.Verifier.random()
        // The name alone: a host that signs in with a password needs more, and says so with an auth_session.
        let first = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: verifier, in: session) + [("username", user.username)],
            to: target, in: session)
        guard first.error == "insufficient_authorization", let authSession = first.authSession else {
            return .skip("the name alone answered \(first.summary) without an auth_session: no step to continue")
        }
        let step = [("client_id", target.client.id), ("auth_session", authSession), ("password", user.password)]
        let second = try await FirstPartyApp.send(step, to: target, in: session)
        guard second.code != nil else { return .skip("continuing with the auth_session answered \(second.summary)") }
        let replay = try await FirstPartyApp.send(step, to: target, in: session, as: .attacker)
        if replay.code != nil { return .fail("the same auth_session gave a second code") }
        return .pass("the replay was refused: \(replay.summary)")
    }
}
