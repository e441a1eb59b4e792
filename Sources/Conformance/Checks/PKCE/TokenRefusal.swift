/// The rule the attack checks at the token endpoint share: the request is refused with `400` (RFC 6749 §5.2); a
/// `200` means the attack worked. No answer at all proves neither, so the check skips.
enum TokenRefusal {
    static func judge(_ result: Result<TokenExchange, StepFailure>, what: String) -> CheckOutcome {
        switch result {
        case .failure(let failure): return .skip(failure.reason)
        case .success(let exchange) where exchange.response.status == 400 || exchange.response.status == 401:
            return .pass("refused: \(exchange.summary)")
        case .success(let exchange): return .fail("\(what) answered \(exchange.summary)")
        }
    }
}
