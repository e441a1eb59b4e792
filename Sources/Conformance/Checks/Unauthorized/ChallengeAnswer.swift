import SignInProtocol

/// The one rule the unauthorized checks share: a refused credential gets `401` and the same Bearer challenge as no
/// credential at all, so Office can start the sign-in again (RFC 6750 §3; Microsoft's WOPI bootstrapper docs).
enum ChallengeAnswer {
    /// `lacksCredentials`: the request carried no credential the host could read, so the challenge SHOULD NOT carry an
    /// error code (RFC 6750 §3.1); a broken SHOULD inside a MUST check is reported as WARN.
    static func judge(
        _ result: Result<ObservedResponse, StepFailure>, what: String, in session: ConformanceSession,
        lacksCredentials: Bool = false
    ) -> CheckOutcome {
        let response: ObservedResponse
        switch result {
        case .success(let found): response = found
        case .failure(let failure): return .fail(failure.reason)
        }
        guard response.status == 401 else { return .fail("\(what): expected 401, got \(response.status)") }
        let values = response.values("WWW-Authenticate")
        guard !values.isEmpty else { return .fail("\(what): 401 without WWW-Authenticate") }
        let challenges = (try? AuthenticationChallenge.parse(headerValues: values)) ?? []
        guard let bearer = challenges.first(where: { $0.hasScheme("Bearer") }) else {
            return .fail("\(what): the 401 has no Bearer challenge")
        }
        if session.options.bootstrapURL != nil, bearer[parameter: BootstrapChallenge.ParameterName.authorizationURI] == nil {
            return .fail("\(what): the 401's Bearer challenge has no authorization_uri")
        }
        if lacksCredentials, let error = bearer[parameter: "error"] {
            return .warn("\(what): the challenge carries error=\"\(error)\"; RFC 6750 §3.1: without credentials it SHOULD NOT")
        }
        return .pass("\(what): 401 with the challenge")
    }
}
