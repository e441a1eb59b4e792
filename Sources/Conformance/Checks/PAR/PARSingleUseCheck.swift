/// RFC 9126 §4: a `request_uri` SHOULD be used once: it carries values (PKCE's challenge, the state) that belong to
/// one authorization.
struct PARSingleUseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.single-use", group: .par, level: .should, source: .rfc(9126, "§4", "Authorization Request"),
        summary: "A request_uri that already led to a code gives no second code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await PushedAuthorization.target(in: session)
        let (fields, state) = PushedAuthorization.officeFields(target, in: session)
        let pushed = try await PushedAuthorization.push(fields, to: target, in: session)
        guard let requestURI = pushed.requestURI else { return .skip("the push answered \(pushed.summary) (see par.push)") }
        let first = try await PushedAuthorization.authorize(target, requestURI: requestURI, clientID: target.office.id, state: state, in: session)
        guard first.value?.code != nil else { return .skip("the first use gave no code (see par.authorize)") }
        switch try await PushedAuthorization.authorize(target, requestURI: requestURI, clientID: target.office.id, state: state, in: session) {
        case .failure(let refusal): return .pass("the second use was refused: \(refusal.reason)")
        case .success(let again):
            return again.code == nil
                ? .pass("the second use gave no code" + (again.parameters["error"].map { " (error=\($0))" } ?? ""))
                : .fail("the same request_uri gave a second code")
        }
    }
}
