import BridgeStore
import SignInProtocol

/// What an interaction request needs next, as a step decided it: a value, drawn by `InteractionRenderer`. Steps
/// never build a response themselves, so a new step is a decision and its test, not another page writer.
enum InteractionNeed: Sendable, Equatable {
    /// The store issued the code: back to the client with it (RFC 6749 §4.1.2).
    case issueCode(SecretToken, GrantRecord)
    /// A page would be needed but the client asked for none (`prompt=none`): this error goes to the client
    /// (OpenID Connect Core §3.1.2.6).
    case refuse(OAuthError)
    /// The password form, and "Continue with …" for each upstream provider; `retry` after a failed attempt.
    case signIn(retry: SignInRetry? = nil)
    /// The signed-in user must allow the client's scopes.
    case consent(UserRecord)
    /// Parked for the host's app (app to app): the deep link that carries the reference, and the reference's
    /// digest (what a native chain keeps to take the host's app's decision).
    case waitForHostApp(deepLink: String, reference: TokenDigest)
    /// Sign in at an upstream provider: the browser goes to `location`, its authorization request.
    case upstream(location: String)
    /// The upstream provider could not be used, or its answer was refused.
    case upstreamProblem(UpstreamProblem, providerName: String)
    /// Nothing can continue this request (no step applies).
    case expired
}

/// Why the password form is shown again.
struct SignInRetry: Sendable, Hashable {
    enum Problem: Sendable, Hashable {
        /// Unknown name or wrong password (one message for both, so names cannot be probed).
        case wrongCredentials
        /// Too many failures for this name or address: try again after this many seconds (RFC 6585 §4).
        case throttled(retryAfterSeconds: Int)
    }
    /// The name typed, kept in the form.
    var userName: String
    var problem: Problem
}

/// What went wrong with an upstream provider, as the person sees it.
enum UpstreamProblem: Sendable, Hashable {
    /// The login was refused before the provider was asked (unknown, replayed or expired `state`).
    case refused
    /// The provider answered the authorization request with an error (RFC 6749 §4.1.2.1): mostly the user cancelled.
    case cancelled
    /// The provider failed, or its answer failed a check.
    case failed(UpstreamFailure)
}
