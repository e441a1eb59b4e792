import SignInProtocol

/// The parameters decode as an authorization request: no defined parameter twice (RFC 6749 §3.1), Office's
/// `rs`/`build`/`platform` once in any case variant, `response_type` present. The first check whose errors are
/// redirected, so `state` is taken from the raw parameters when it is there exactly once.
struct CheckParameters: Sendable {
    func request(from parameters: FormParameters) throws(OAuthError) -> AuthorizationRequest {
        do {
            return try AuthorizationRequest.decode(parameters)
        } catch {
            throw error.oauthError
        }
    }

    /// `state` to echo on an early error: only an unambiguous one.
    static func echoableState(in parameters: FormParameters) -> String? {
        let values = parameters.values(for: "state")
        return values.count == 1 && !values[0].isEmpty ? values[0] : nil
    }
}
