/// Draft 07 §4.1: the ID token's `ds_hash` binds it to its `device_secret`; the first sign-in's ID token with
/// another sign-in's (live) device secret gets an error and no tokens.
struct NativeSSOBoundSecretCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "nativesso.bound-secret", group: .nativesso, level: .must, source: NativeSSO.spec("§4.1", "Token Exchange Request"),
        summary: "An ID token exchanged with another sign-in's device_secret is refused with 400")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let (idToken, _) = try await NativeSSO.firstAppSignIn(in: session).pair()
        let (_, otherSecret) = try await NativeSSO.firstAppSignIn("native-sso-other-device", in: session).pair()
        let answer = try await NativeSSO.exchange(idToken: idToken, deviceSecret: otherSecret, in: session, as: .attacker)
        if answer.error == "unsupported_grant_type" { return .skip("the host does not take the exchange (see nativesso.exchange)") }
        if answer.accessToken != nil { return .fail("another sign-in's device_secret was accepted with this ID token") }
        return answer.response.status == 400 ? .pass("refused: \(answer.summary)") : .fail("answered \(answer.summary), not 400")
    }
}
