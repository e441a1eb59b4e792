import SignInProtocol

/// RFC 9126 §2.2: a successful push answers 201 with a `request_uri` and its lifetime `expires_in` in seconds.
struct PARPushCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.push", group: .par, level: .must, source: .rfc(9126, "§2.2", "Successful Response"),
        summary: "Office's authorization request pushed with its client credentials answers 201 with request_uri and a positive integer expires_in")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let pushed = try await PushedAuthorization.officePush(in: session).pushed
        guard pushed.response.status == 201 else { return .fail("the push answered \(pushed.summary), not 201") }
        guard let requestURI = pushed.json?["request_uri"]?.stringValue, !requestURI.isEmpty else {
            return .fail("201 without a request_uri string")
        }
        guard case .integer(let lifetime)? = pushed.json?["expires_in"], lifetime > 0 else {
            return .fail("expires_in is \(pushed.json?["expires_in"].map { "\($0)" } ?? "missing"), not a positive integer")
        }
        return .pass("201, a request_uri living \(lifetime) s")
    }
}
