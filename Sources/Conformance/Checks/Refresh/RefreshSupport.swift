extension ConformanceSession {
    /// A refresh with Office's client (RFC 6749 §6).
    func refresh(_ refreshToken: String, as party: Party = .office) async -> Result<TokenExchange, StepFailure> {
        await officeTokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], as: party)
    }
}
