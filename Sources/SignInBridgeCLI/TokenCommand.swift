import ArgumentParser
import BridgeServer
import BridgeStore
import Foundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Issue access tokens by hand: for scripts, smoke tests and curl, without a sign-in in a browser.",
        subcommands: [Issue.self])

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a signed access token for a user and client, recorded in the store so it can be revoked.",
            discussion: """
                Prints only the token on stdout, so that `TOKEN=$(signin-bridge token issue …)` works; its expiry goes
                to stderr. Uses the same store and signing keys as `serve`, and may run while the server does.
                """)

        @Option(help: "The YAML configuration file of the server.")
        var config: String

        @Option(help: "The user id (users[].id in the configuration).")
        var user: String

        @Option(help: "The client id (clients[].id in the configuration).")
        var client: String

        @Option(help: "Space-separated scope of the grant.")
        var scope: String = "wopi"

        @Option(help: "Lifetime in seconds instead of tokens.accessTokenLifetimeSeconds (a short one tests expiry).")
        var lifetimeSeconds: Int?

        func run() async throws {
            var configuration = try loadConfigurationOrExit(config).configuration
            if let lifetimeSeconds {
                guard lifetimeSeconds > 0 else {
                    printToStandardError("--lifetime-seconds must be a positive number of seconds")
                    throw ExitCode(2)
                }
                configuration.tokens.accessTokenLifetimeSeconds = lifetimeSeconds
            }
            guard configuration.clients.contains(where: { $0.id == client }) else {
                printToStandardError("unknown client \"\(client)\": it is not in clients[] of \(config)")
                throw ExitCode(2)
            }
            let runtime = try await ServerRuntime.open(configuration)
            do {
                let app = runtime.app
                try await app.seedUsers()
                guard try await app.store.user(id: user) != nil else {
                    printToStandardError("unknown user \"\(user)\": it is not in users[] of \(config) nor in the store")
                    throw ExitCode(2)
                }
                let now = Date()
                let grant = GrantRecord(userID: user, clientID: client, scope: scope, createdAt: now)
                let issued = try await app.accessTokenIssuer.issue(inNewGrant: grant, at: now)
                print(issued.token)
                printToStandardError("expires \(ISO8601DateFormatter().string(from: issued.expiresAt)) (grant \(grant.id))")
                try await app.store.close()
            } catch {
                try? await runtime.app.store.close()
                throw error
            }
        }
    }
}
