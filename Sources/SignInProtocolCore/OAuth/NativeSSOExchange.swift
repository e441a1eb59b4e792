/// OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07): the token exchange another app of the same vendor sends
/// with the first app's ID token and the device secret (§4.1, §4.2), and the device secret of a token response
/// (§3.4.2).
extension TokenRequest.TokenExchange {
    /// §4.1 `subject_token_type` (RFC 8693 §3).
    public static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    /// §4.1 `actor_token_type`.
    public static let deviceSecretType = "urn:openid:params:token-type:device-secret"

    /// The exchange of §4.2: `audience` is the provider's issuer when sent.
    public static func nativeSSO(idToken: String, deviceSecret: String, audience: String? = nil) -> Self {
        TokenRequest.TokenExchange(
            subjectToken: idToken, subjectTokenType: idTokenType, actorToken: deviceSecret,
            actorTokenType: deviceSecretType, audiences: audience.map { [$0] } ?? [])
    }

    /// An exchange of this profile (an ID token as subject or a device secret as actor) rather than RFC 8693 alone.
    public var isNativeSSO: Bool { subjectTokenType == Self.idTokenType || actorTokenType == Self.deviceSecretType }
}

extension TokenResponse {
    /// §3.4.2: the `device_secret` of a code granted `device_sso`; nil otherwise.
    public var deviceSecret: String? {
        guard case .string(let value)? = additionalFields["device_secret"] else { return nil }
        return value
    }
}
