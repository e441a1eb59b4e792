/// Draft 07 §3: with `device_sso` granted, the token response carries a `device_secret`, and the ID token a
/// `ds_hash` of it (the left half of its hash, as Core's `at_hash`) and the session's `sid`.
struct NativeSSODeviceSecretCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "nativesso.device-secret", group: .nativesso, level: .must, source: NativeSSO.spec("§3", "Native SSO Authorization Request and Response"),
        summary: "A sign-in with scope openid device_sso returns a device_secret, and an ID token with its ds_hash and a sid")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let tokens = try await NativeSSO.firstAppSignIn(in: session)
        guard let deviceSecret = tokens.deviceSecret, !deviceSecret.isEmpty else { return .fail("the token response has no device_secret") }
        guard let parts = tokens.idTokenParts else { return .fail("the token response has no ID token (a JWS)") }
        var problems = [String]()
        let alg = parts.header["alg"]?.stringValue ?? ""
        switch (parts.claims["ds_hash"]?.stringValue, OpenIDSignIn.atHash(of: deviceSecret, alg: alg)) {
        case (nil, _): problems.append("the ID token has no ds_hash")
        case (let found?, let expected?) where found != expected: problems.append("ds_hash is not the left half of the device_secret's hash")
        default: break
        }
        if parts.claims["sid"]?.stringValue?.isEmpty != false { problems.append("the ID token has no sid") }
        return problems.isEmpty ? .pass("device_secret, ds_hash and sid") : .fail(problems.joined(separator: "; "))
    }
}
