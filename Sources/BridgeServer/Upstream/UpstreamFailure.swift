import Logging
import SignInProtocol

/// Why a sign-in at an upstream provider did not work. `reason` is the metric label
/// (`signin_bridge_upstream_failures_total{upstream,reason}`) and the log's; `detail` says more, never a secret.
struct UpstreamFailure: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: String, Sendable, Hashable {
        /// No connection, or no answer within the upstream's `timeoutSeconds`.
        case unreachable
        /// A 5xx answer: the provider is there but broken.
        case serverError = "server_error"
        /// A document that is not what OpenID Connect Discovery or RFC 6749 §5.1 describes.
        case badResponse = "bad_response"
        /// The discovery document names another issuer (OpenID Connect Discovery 1.0 §4.3).
        case issuerMismatch = "issuer_mismatch"
        /// The token endpoint refused the code (RFC 6749 §5.2).
        case tokenRefused = "token_refused"
        /// The ID token failed a check of OpenID Connect Core 1.0 §3.1.3.7.
        case idToken = "id_token"
        /// The UserInfo answer is not for the ID token's subject (OpenID Connect Core 1.0 §5.3.2).
        case userInfo = "userinfo"
        /// The provider answered the authorization request with an error (RFC 6749 §4.1.2.1): the user declined, or
        /// the provider refused our request.
        case authorizationError = "authorization_error"
    }

    let reason: Reason
    let detail: String

    init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The provider could not be used at all (down, broken): the user sees "try again later", not "refused".
    var isOutage: Bool { reason == .unreachable || reason == .serverError }

    var description: String { "\(reason.rawValue): \(detail)" }
}

extension UpstreamFailure {
    /// The operator's side of a failure: a log line and `signin_bridge_upstream_failures_total{upstream,reason}`.
    /// The provider's error answer to the authorization request, its code kept for the log (`detail`), limited to
    /// 64 characters within the RFC 6749 §4.1.2.1 character set.
    static func authorizationError(_ code: some StringProtocol) -> UpstreamFailure {
        UpstreamFailure(.authorizationError, "the provider answered error=" + OAuthError.wireSafe(String(code.prefix(64))))
    }

    func report(upstream: String, metrics: BridgeMetrics, logger: Logger) {
        metrics.countUpstreamFailure(upstream: upstream, reason: reason.rawValue)
        // A provider's error answer is often the user declining: worth a notice, not an operator's alarm.
        logger.log(
            level: reason == .authorizationError ? .notice : .error, "upstream sign-in failed",
            metadata: ["upstream": "\(upstream)", "reason": "\(reason.rawValue)", "detail": "\(detail)"])
    }
}
