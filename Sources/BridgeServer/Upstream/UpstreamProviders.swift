import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// The configured upstream providers by id, sharing one HTTP client, which `UpstreamClientShutdown` closes after
/// the server has drained.
struct UpstreamProviders: Sendable {
    let byID: [String: UpstreamProvider]
    let client: UpstreamHTTPClient?

    init(configuration: BridgeConfiguration, metrics: BridgeMetrics? = nil) {
        // The host's identity provider (`identityProvider`) is called through the same client.
        guard !configuration.upstreams.isEmpty || configuration.identityProvider != nil else {
            self.byID = [:]
            self.client = nil
            return
        }
        let client = UpstreamHTTPClient()
        let http = UpstreamHTTP(client: client)
        var byID = [String: UpstreamProvider]()
        for upstream in configuration.upstreams {
            let events = metrics.map { KeySetMetrics(source: upstream.id, metrics: $0) }
            byID[upstream.id] = UpstreamProvider(
                settings: upstream, callbackURL: upstream.callbackURL(in: configuration), http: http,
                keys: RemoteKeySet(events: { event in events?.record(event) }))
        }
        self.byID = byID
        self.client = client
    }

    subscript(id: String?) -> UpstreamProvider? { id.flatMap { byID[$0] } }
}

/// Shuts the upstream HTTP client down at graceful shutdown.
struct UpstreamClientShutdown: Service {
    let client: UpstreamHTTPClient
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do { try await client.shutdown() } catch { logger.error("upstream HTTP client did not shut down", metadata: ["error": "\(error)"]) }
    }
}
