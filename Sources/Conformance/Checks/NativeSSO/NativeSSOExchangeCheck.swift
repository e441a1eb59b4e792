/// Draft 07 §4: the second app of the same vendor exchanges the first app's ID token and `device_secret` for its
/// own tokens, without the user signing in again.
struct NativeSSOExchangeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "nativesso.exchange", group: .nativesso, level: .must, source: NativeSSO.spec("§4", "Token Exchange Profile for Native SSO"),
        summary: "The second app's token exchange (ID token as subject, device_secret as actor) answers 200 with an access token")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let (idToken, deviceSecret) = try await NativeSSO.firstAppSignIn(in: session).pair()
        let answer = try await NativeSSO.exchange(idToken: idToken, deviceSecret: deviceSecret, in: session)
        guard answer.response.status == 200, answer.accessToken != nil else { return .fail("the exchange answered \(answer.summary)") }
        guard answer.json?["issued_token_type"]?.stringValue != nil else {
            return .fail("200 without issued_token_type (RFC 8693 §2.2.1 requires it)")
        }
        return .pass("200 with an access token for the second app")
    }
}
