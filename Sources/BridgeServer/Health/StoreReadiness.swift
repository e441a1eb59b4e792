import BridgeStore

/// The store answers its health query (`Store.checkHealth`: a `SELECT 1` on the database), as `/auth/health` asks it.
struct StoreReadiness: ReadinessCheck {
    let store: any Store
    var name: String { "store" }

    func problem() async -> String? {
        do {
            try await store.checkHealth()
            return nil
        } catch {
            // The error's type only: a driver's message may carry a connection string.
            return "the store did not answer its health check (\(String(reflecting: type(of: error))))"
        }
    }
}
