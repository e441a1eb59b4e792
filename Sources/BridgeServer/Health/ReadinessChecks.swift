import BridgeStore

/// The readiness checks of one server, asked one after another (each is one cheap call).
struct ReadinessChecks: Sendable {
    let checks: [any ReadinessCheck]

    init(checks: [any ReadinessCheck]) {
        self.checks = checks
    }

    init(store: any Store, keys: SigningKeySet) {
        self.init(checks: [StoreReadiness(store: store), SigningKeysReadiness(keys: keys)])
    }

    func report() async -> ReadinessReport {
        var results: [String: String] = [:]
        var notReady: [String] = []
        for check in checks {
            if let problem = await check.problem() {
                results[check.name] = problem
                notReady.append(check.name)
            } else {
                results[check.name] = "ok"
            }
        }
        return ReadinessReport(
            status: notReady.isEmpty ? "ready" : "not ready", checks: results, notReady: notReady.isEmpty ? nil : notReady)
    }
}
