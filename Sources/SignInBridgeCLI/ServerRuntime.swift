import ArgumentParser
import BridgeServer
import BridgeStore
import Logging

/// Opens what `serve` and `token issue` share: the store and the signing keys named by the configuration.
struct ServerRuntime {
    let app: BridgeServerApp
    let createdSigningKeys: Bool

    static func open(_ configuration: BridgeConfiguration, logger: Logger = Logger(label: "signin-bridge")) async throws
        -> ServerRuntime
    {
        let store = try await StoreOpening.open(configuration, logger: logger)
        do {
            let (keys, created) = try await SigningKeyFile.loadOrCreate(path: configuration.signingKeys.file)
            return ServerRuntime(
                app: BridgeServerApp(
                    configuration: configuration, store: store, keys: keys, keyFile: configuration.signingKeys.file,
                    logger: logger),
                createdSigningKeys: created)
        } catch {
            try? await store.close()
            printToStandardError(error.description)
            throw ExitCode(2)
        }
    }
}
