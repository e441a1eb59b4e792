import BridgeStore

/// The OpenID Connect scope values and the claims each one releases (OpenID Connect Core §5.4).
enum OpenIDScope {
    static let openid = "openid"

    /// `profile`, `email` and `phone` and their claims, as far as a user record has them.
    static let claimsByScope: [(scope: String, claims: [String])] = [
        ("profile", ["name", "preferred_username"]),
        ("email", ["email"]),
        ("phone", ["phone_number"]),
    ]

    /// Every claim this server can release, for `claims_supported`.
    static let supportedClaims: [String] =
        ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "azp", "sid", "ds_hash"] + claimsByScope.flatMap(\.claims)

    static let supportedScopes: [String] = [openid] + claimsByScope.map(\.scope)

    static func isOpenID(_ scope: String) -> Bool { scope.split(separator: " ").contains { $0 == openid } }

    /// The UserInfo claims of `user` for `scope` (OpenID Connect Core §5.3.2): `sub` always, the rest when the
    /// scope asks for them and the user has a value.
    static func claims(of user: UserRecord, subject: String, scope: String) -> [String: String] {
        let scopes = Set(scope.split(separator: " ").map(String.init))
        var claims = ["sub": subject]
        if scopes.contains("profile") {
            claims["preferred_username"] = user.signInName
            if let name = user.friendlyName { claims["name"] = name }
        }
        if scopes.contains("email"), let email = user.email { claims["email"] = email }
        if scopes.contains("phone"), let phone = user.phoneNumber { claims["phone_number"] = phone }
        return claims
    }
}
