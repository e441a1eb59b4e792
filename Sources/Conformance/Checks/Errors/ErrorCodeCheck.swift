import SignInProtocol

/// RFC 6749 §5.2 and §4.1.2.1: `error` is one of the listed codes or an extension registered with IANA (§8.5), so a
/// client can act on it; a private code is something no client knows.
struct ErrorCodeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "errors.registered-code", group: .errors, level: .must, source: .rfc(6749, "§5.2", "Error Response"),
        summary: "Every OAuth error of the run (token, authorization, resource) uses a code from the RFCs or the IANA registry")

    /// Registered beyond RFC 6749/6750 (IANA "OAuth Extensions Error Registry"): OpenID Connect Core §3.1.2.6, RFC 8628
    /// §3.5, RFC 9449 §12.2, RFC 8693 §2.2.2, RFC 8707 §2; and the codes defined by drafts a host may advertise:
    /// OAuth 2.0 for First-Party Applications §5.2.2.1 and Attestation-Based Client Authentication.
    static let extensions: Set<String> = [
        "invalid_session", "insufficient_authorization", "redirect_to_web",
        "invalid_client_attestation", "use_attestation_challenge", "use_fresh_attestation",
        "interaction_required", "login_required", "account_selection_required", "consent_required",
        "invalid_request_uri", "invalid_request_object", "request_not_supported", "request_uri_not_supported",
        "registration_not_supported", "authorization_pending", "slow_down", "expired_token", "invalid_dpop_proof",
        "use_dpop_nonce", "invalid_target", "unsupported_token_type",
    ]

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let errors = try await ErrorSample.collect(in: session)
        let registered = Set(OAuthError.Code.registered.map(\.rawValue)).union(Self.extensions)
        let unknown = errors.filter { !registered.contains($0.error) }
        guard unknown.isEmpty else { return .fail(unknown.map(ErrorSample.describe).joined(separator: "; ")) }
        return .pass("\(errors.count) error(s), all registered: \(Set(errors.map(\.error)).sorted().joined(separator: ", "))")
    }
}
