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
