import SignInProtocol

/// Draft 07 §4.1: the server checks the `device_secret` it is given; a value it never issued gets an error and no
/// tokens (RFC 8693 §2.2.2: `invalid_request` or `invalid_grant`).
struct NativeSSOForeignSecretCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "nativesso.unknown-secret", group: .nativesso, level: .must, source: NativeSSO.spec("§4.1", "Token Exchange Request"),
        summary: "A token exchange with a device_secret the host never issued is refused with 400")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let (idToken, _) = try await NativeSSO.firstAppSignIn(in: session).pair()
        let answer = try await NativeSSO.exchange(idToken: idToken, deviceSecret: PKCE.Verifier.random().value, in: session, as: .attacker)
        if answer.error == "unsupported_grant_type" { return .skip("the host does not take the exchange (see nativesso.exchange)") }
        if answer.accessToken != nil { return .fail("a made-up device_secret bought an access token") }
        return answer.response.status == 400 && ["invalid_grant", "invalid_request"].contains(answer.error ?? "")
            ? .pass("refused: \(answer.summary)") : .fail("answered \(answer.summary), not 400 invalid_grant or invalid_request")
    }
}
