/// RFC 9700 §4.14.2: refresh tokens are rotated (a new one with each refresh) or bound to the client; rotation is
/// what lets the host notice a stolen one.
struct RefreshRotationCheck: ConformanceCheck {
    static let id = "refresh.rotation"
    static let group = CheckGroup.refresh
    static let level = CheckLevel.should
    static let source = SourceCitation.rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations")
    static let summary = "A refresh answers a new access token and a new refresh token"

    func run(in session: ConformanceSession) async -> CheckOutcome {
        let first: TokenExchange
        switch await session.freshOfficeTokens() {
        case .success(let found): first = found.1
        case .failure(let failure): return .skip(failure.reason)
        }
        guard let refreshToken = first.refreshToken else { return .skip("no refresh_token was issued") }
        switch await session.refresh(refreshToken) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let second):
            guard second.response.status == 200, second.accessToken != nil else { return .fail("the refresh answered \(second.summary)") }
            guard let rotated = second.refreshToken else { return .fail("no new refresh_token: the old one stays valid") }
            return rotated == refreshToken ? .fail("the same refresh_token came back") : .pass("rotated")
        }
    }
}
