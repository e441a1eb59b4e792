import BridgeStore

/// One thing `/health/ready` needs before the instance takes traffic. One named type each, on `ReadinessChecks`'
/// list (`IdentityProviderKeysReadiness` is appended with `identityProvider:`).
protocol ReadinessCheck: Sendable {
    /// The key in the probe's JSON body (`"store"`, `"signingKeys"`).
    var name: String { get }
    /// Nil when ready; else why not, in words that name no secret.
    func problem() async -> String?
}

/// What `/health/ready` answers: 200 `{"status":"ready","checks":{…:"ok"}}`, or 503 with `"status":"not ready"`, the
/// names of the parts not ready in `notReady` and each one's reason in `checks`.
struct ReadinessReport: Encodable, Sendable, Equatable {
    var status: String
    var checks: [String: String]
    var notReady: [String]?

    var isReady: Bool { notReady == nil }
}

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
