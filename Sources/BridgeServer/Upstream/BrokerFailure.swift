import SignInProtocol

/// What a native app is told when its broker sign-in did not end with a user: one of four codes, on the deep link
/// (`?success=false&error=…`) and from `/session`. An upstream provider's own error code never reaches the app: it is
/// a provider's word about our request (`invalid_scope` says our configuration is wrong), and the app can do
/// nothing with it but tell the user one of these.
enum BrokerFailure: String, Sendable, CaseIterable {
    /// The user declined, or could not sign in, at the provider.
    case accessDenied = "access_denied"
    /// The provider is down or not answering; trying again later may work.
    case temporarilyUnavailable = "temporarily_unavailable"
    /// The provider refused our request or answered something unusable: the host must fix its setup.
    case serverError = "server_error"
    /// The broker session expired before the browser came back.
    case sessionExpired = "session_expired"

    /// The codes a provider may answer an authorization request with (RFC 6749 §4.1.2.1, OpenID Connect Core
    /// §3.1.2.6) mapped to what the app is told: the user-side ones to `access_denied`, an outage to
    /// `temporarily_unavailable`, every other code (a request the provider refused, or one we do not know) to
    /// `server_error`.
    init(upstreamError code: String) {
        switch OAuthError.Code(rawValue: code) {
        case .accessDenied, .loginRequired, .consentRequired, .interactionRequired: self = .accessDenied
        case .other("account_selection_required"): self = .accessDenied
        case .temporarilyUnavailable: self = .temporarilyUnavailable
        default: self = .serverError
        }
    }

    /// A failure after the provider's callback (token request, ID token checks).
    init(_ failure: UpstreamFailure) {
        self = failure.isOutage ? .temporarilyUnavailable : .serverError
    }

    /// `/session`'s terminal answer for a session that ended this way (400, the session is used up; RFC 8628 §3.5
    /// answers polling the same way once the user denied).
    var sessionError: OAuthError {
        OAuthError(OAuthError.Code(rawValue: rawValue), description: "the sign-in at the provider did not complete; start again")
    }
}
