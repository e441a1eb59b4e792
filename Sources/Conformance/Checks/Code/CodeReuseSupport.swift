/// The experiment both code reuse checks read: redeem one code twice.
struct CodeReuse: Sendable {
    var first: TokenExchange
    var second: TokenExchange

    static func run(in session: ConformanceSession) async -> Result<CodeReuse, StepFailure> {
        await session.remembered("code-reuse") { await experiment(in: session) }
    }

    private static func experiment(in session: ConformanceSession) async -> Result<CodeReuse, StepFailure> {
        let signIn: SignInOutcome
        let first: TokenExchange
        switch await session.freshOfficeTokens() {
        case .success(let found): (signIn, first) = found
        case .failure(let failure): return .failure(failure)
        }
        guard let code = signIn.code else { return .failure(StepFailure("no code")) }
        return await session.redeemOfficeCode(code, signIn: signIn, as: .attacker).map {
            CodeReuse(first: first, second: $0)
        }
    }
}
