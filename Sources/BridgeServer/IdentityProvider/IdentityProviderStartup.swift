import Foundation

/// The challenge Office reads is built once at start (`ChallengeResponse`), so its `authorization_uri` and
/// `tokenIssuance_uri` are settled before the server is: the configured overrides, else what the provider's discovery
/// document says. A provider that cannot be read at start with no overrides stops the start (exit 2) with the reason:
/// a challenge that sends Office nowhere would fail every user, and an orchestrator restarts the process.
public enum IdentityProviderStartup {
    public static func resolve(_ configuration: BridgeConfiguration) async throws(ConfigurationError) -> BridgeConfiguration {
        guard var settings = configuration.identityProvider,
            settings.authorizationEndpoint == nil || settings.tokenEndpoint == nil
        else { return configuration }
        let client = UpstreamHTTPClient()
        let connection = IdentityProviderConnection(
            settings: settings, http: UpstreamHTTP(client: client), keys: RemoteKeySet(), environment: [:])
        let document: ProviderMetadata
        do {
            document = try await connection.metadata()
        } catch {
            try? await client.shutdown()
            throw ConfigurationError(file: nil, problems: [
                .init(
                    keyPath: "identityProvider.issuer",
                    message: "the discovery document cannot be read (\(error)); fix the provider or metadataURL, or set "
                        + "identityProvider.authorizationEndpoint and tokenEndpoint to start without it")
            ])
        }
        try? await client.shutdown()
        return try filled(configuration, &settings, from: document)
    }

    /// The overrides kept, the rest taken from the document; https unless `allowInsecureHTTP`.
    static func filled(
        _ configuration: BridgeConfiguration, _ settings: inout IdentityProviderSettings, from document: ProviderMetadata
    ) throws(ConfigurationError) -> BridgeConfiguration {
        var problems: [ConfigurationProblem] = []
        func take(_ configured: String?, _ discovered: String?, _ key: String, _ member: String) -> String? {
            if let configured { return configured }
            guard let discovered, discovered.hasPrefix("https://") || (settings.allowInsecureHTTP && discovered.hasPrefix("http://"))
            else {
                problems.append(
                    .init(
                        keyPath: "identityProvider.\(key)",
                        message: "is not set and the discovery document's \(member) is \(discovered.map { "not https (\($0.prefix(200)))" } ?? "missing")"))
                return nil
            }
            return discovered
        }
        settings.authorizationEndpoint = take(
            settings.authorizationEndpoint, document.authorizationEndpoint, "authorizationEndpoint", "authorization_endpoint")
        settings.tokenEndpoint = take(settings.tokenEndpoint, document.tokenEndpoint, "tokenEndpoint", "token_endpoint")
        if !problems.isEmpty { throw ConfigurationError(file: nil, problems: problems) }
        var configuration = configuration
        configuration.identityProvider = settings
        return configuration
    }
}
