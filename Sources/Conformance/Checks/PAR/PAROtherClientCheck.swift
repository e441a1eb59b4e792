/// RFC 9126 §4 (the request is validated as any other, RFC 6749 §4.1.2.1): a `request_uri` is bound to the client
/// that pushed it; used under another `client_id`, it gives no code.
struct PAROtherClientCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.other-client", group: .par, level: .must, source: .rfc(9126, "§4", "Authorization Request"),
        summary: "Office's request_uri used with the partner app's client_id gives no code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let partner = try session.options.required(.publicClient)
        let target = try await PushedAuthorization.target(in: session)
        let (fields, state) = PushedAuthorization.officeFields(target, in: session)
        let pushed = try await PushedAuthorization.push(fields, to: target, in: session)
        guard let requestURI = pushed.requestURI else { return .skip("the push answered \(pushed.summary) (see par.push)") }
        let outcome = try await PushedAuthorization.authorize(
            target, requestURI: requestURI, clientID: partner.id, state: state, alsoStopAt: [partner.redirectURI], in: session, as: .attacker)
        if case .success(let ended) = outcome, ended.code != nil {
            return .fail("another client's client_id with Office's request_uri gave a code")
        }
        return .pass("no code for another client_id")
    }
}
