import SignInProtocol

/// Draft §5.2.2.1: an `auth_session` the server did not issue (or no longer honours) is `invalid_session`, even
/// when the rest of the request would sign the user in.
struct FirstPartyInvalidSessionCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.invalid-session", group: .firstparty, level: .must, source: FirstPartyApp.draft("§5.2.2.1", "Error Codes"),
        summary: "An auth_session the host never issued is refused with invalid_session, not ignored")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await FirstPartyApp.target(in: session)
        let forged = PKCE.Verifier.random().value  // 43 random base64url characters: the shape of a real one
        let answer = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: .random(), in: session) + [("auth_session", forged)]
                + FirstPartyApp.credentials(in: session),
            to: target, in: session, as: .attacker)
        if answer.code != nil { return .fail("a forged auth_session was ignored: the request got a code") }
        return answer.response.status == 400 && answer.error == "invalid_session"
            ? .pass("400 invalid_session") : .fail("answered \(answer.summary), not 400 invalid_session")
    }
}
