import SignInProtocol

/// The one rule the unauthorized checks share: a refused credential gets `401` and the same Bearer challenge as no
/// credential at all, so Office can start the sign-in again (RFC 6750 §3; Microsoft's WOPI bootstrapper docs).
enum ChallengeAnswer {
    static func judge(_ result: Result<ObservedResponse, StepFailure>, what: String) -> CheckOutcome {
        let response: ObservedResponse
        switch result {
        case .success(let found): response = found
        case .failure(let failure): return .fail(failure.reason)
        }
        guard response.status == 401 else { return .fail("\(what): expected 401, got \(response.status)") }
        let values = response.values("WWW-Authenticate")
        guard !values.isEmpty else { return .fail("\(what): 401 without WWW-Authenticate") }
        let challenges = (try? AuthenticationChallenge.parse(headerValues: values)) ?? []
        guard let bearer = challenges.first(where: { $0.hasScheme("Bearer") }),
            bearer[parameter: BootstrapChallenge.ParameterName.authorizationURI] != nil
        else { return .fail("\(what): the 401 has no Bearer challenge with authorization_uri") }
        return .pass("\(what): 401 with the challenge")
    }
}
