/// What a one-time exchange code is for (SPiD `/oauth/exchange`, Schibsted SPiD login docs).
public enum ExchangeCodeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A code the target client's backend redeems at the token endpoint with `grant_type=authorization_code`
    /// and its own credentials.
    case code
    /// A code a web view opens at `/auth/session/{code}` to get a session cookie.
    case session

    /// The documented lifetimes: 30 seconds for `code`, 1 minute for `session` (Schibsted SPiD login docs).
    public var defaultLifetime: Duration {
        .seconds(defaultLifetimeSeconds)
    }

    public var defaultLifetimeSeconds: Int {
        switch self {
        case .code: 30
        case .session: 60
        }
    }
}
