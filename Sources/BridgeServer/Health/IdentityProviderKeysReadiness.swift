/// The host's identity provider's keys are usable: its JWKS was loaded at least once. Until then every token of it
/// would wait on the provider, so the instance should not take traffic (asks for the keys when none are loaded yet).
struct IdentityProviderKeysReadiness: ReadinessCheck {
    let connection: IdentityProviderConnection
    var name: String { "identityProviderKeys" }

    func problem() async -> String? {
        await connection.keysProblem()
    }
}
