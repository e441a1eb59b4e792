import SignInProtocol

/// RFC 6749 §5.1: a JSON object with `access_token`, `token_type` and, for Office, `expires_in` and
/// `refresh_token` (Microsoft's token issuance docs). `expires_in` is a number; a string is read by lenient
/// clients only.
struct TokenResponseShapeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "token.response-shape", group: .token, level: .must, source: .rfc(6749, "§5.1", "Successful Response"),
        summary: "The code redemption answers 200 with a JSON object: access_token, token_type Bearer, expires_in a number (a string warns), refresh_token")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        // The redemption is this check's own step: no answer within --timeout fails it; the steps before it skip it.
        let tokens = await session.officeTokens()
        if case .failure(let failure) = tokens, failure.unanswered, !failure.reason.contains("--deadline") {
            return .fail(failure.reason)
        }
        let exchange = try tokens.orSkip()
        guard exchange.response.status == 200 else { return .fail("the code redemption answered \(exchange.summary)") }
        guard let json = exchange.json else { return .fail("the body is not a JSON object") }
        guard exchange.accessToken?.isEmpty == false else { return .fail("no access_token string") }
        guard let type = json["token_type"]?.stringValue, type.lowercased() == "bearer" else {
            return .fail("token_type is not Bearer")
        }
        guard exchange.refreshToken?.isEmpty == false else { return .fail("no refresh_token: Office cannot renew the sign-in") }
        switch json["expires_in"] {
        case .integer(let seconds) where seconds > 0: return .pass("expires_in \(seconds)")
        case .string(let text) where Int(text).map({ $0 > 0 }) == true:
            return .warn("expires_in is the string \"\(text)\"; RFC 6749 §5.1 defines a number")
        case nil: return .fail("no expires_in: Office cannot tell when to refresh")
        default: return .fail("expires_in is not a positive number of seconds")
        }
    }
}
