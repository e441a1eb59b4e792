/// The store finished the request: the code goes to the client.
struct FinishStep: InteractionStep {
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
        guard case .issued(let grant, _, _) = state.progress else { return nil }
        return .issueCode(state.code, grant)
    }
}
