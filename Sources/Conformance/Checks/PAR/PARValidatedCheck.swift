/// RFC 9126 §2.1 and §4: a pushed request is validated as any authorization request, at the push or at the latest
/// when it is used; a pushed, unregistered redirect URI never receives a code.
struct PARValidatedCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.validated", group: .par, level: .must, source: .rfc(9126, "§2.1", "Request"),
        summary: "A push naming an unregistered redirect_uri is refused, or its request_uri never redirects there")

    static let unregistered = "https://conform-attacker.invalid/callback"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await PushedAuthorization.target(in: session)
        let (fields, state) = PushedAuthorization.officeFields(target, in: session, redirectURI: Self.unregistered)
        let pushed = try await PushedAuthorization.push(fields, to: target, in: session, as: .attacker)
        guard let requestURI = pushed.requestURI else {
            return pushed.response.status == 400 ? .pass("refused at the push: \(pushed.summary)") : .fail("the push answered \(pushed.summary)")
        }
        let endpoints = try await session.endpoints().orSkip()
        let url = URLParts.appending([("client_id", target.office.id), ("request_uri", requestURI)], to: endpoints.authorization)
        let outcome = await SignInDriver(session: session, party: .attacker).signIn(
            AuthorizeRequest(url: url, state: state), redirectURI: Self.unregistered, alsoStopAt: [target.office.redirectURI], person: false)
        if case .success(let ended) = outcome, URLParts.isRedirect(ended.redirectedTo, to: Self.unregistered) {
            return .fail("the pushed request redirected to the unregistered \(Self.unregistered)")
        }
        return .pass("accepted at the push (201) but never redirected to the unregistered URI")
    }
}
