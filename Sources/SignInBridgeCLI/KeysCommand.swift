import ArgumentParser
import BridgeServer
import Foundation

/// `signin-bridge keys list|rotate|retire`: the signing key file named by the configuration (docs/keys-and-secrets.md).
/// Every instance sharing the file picks a change up within a few seconds (`serve` rereads the file when it changes).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, rotate or retire the signing keys (ES256 and RS256).",
        discussion: """
            A rotation is three commands, spaced by the waits each one prints:
              keys rotate    adds a next key: published in the JWKS, not signing
              keys rotate    (after signingKeys.publishBeforeSigningSeconds) next becomes current, current previous
              keys retire    (after the longest token lifetime) removes the previous keys
            Exit status 1 when a step would come too early (nothing is written); --force overrides.
            """,
        subcommands: [List.self, Rotate.self, Retire.self])

    struct Target: ParsableArguments {
        @Option(help: "The YAML configuration file of the server (its signingKeys.file is read and changed).")
        var config: String

        @Option(help: "Only this algorithm: ES256 or RS256 (default: both).")
        var alg: String?

        var algorithms: [String] {
            get throws {
                guard let alg else { return ["ES256", "RS256"] }
                guard ["ES256", "RS256"].contains(alg) else { throw InvalidInput("--alg: expected ES256 or RS256, got \(alg)") }
                return [alg]
            }
        }

        func load() throws -> (file: String, timing: SigningKeyTiming) {
            let configuration = try loadConfigurationOrExit(config).configuration
            return (configuration.signingKeys.file, SigningKeyTiming(configuration: configuration))
        }

        /// Runs `step` on the key file and prints each change on stdout; a refusal or a file problem is exit status 1
        /// with its lines on stderr.
        func change(_ step: (String, [String], SigningKeyTiming) throws -> [String]) throws {
            let (file, timing) = try load()
            let algorithms = try algorithms
            let changes: [String]
            do {
                changes = try step(file, algorithms, timing)
            } catch {
                throw InvalidInput("\(error)")
            }
            if changes.isEmpty { print("nothing to change") }
            for line in changes { print(line) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show each key: algorithm, kid, status, creation, what comes next.")

        @OptionGroup var target: Target

        func run() async throws {
            let (file, timing) = try target.load()
            let algorithms = try target.algorithms
            do {
                for key in try SigningKeyFile.list(path: file, timing: timing) where algorithms.contains(key.alg) {
                    print([key.alg, key.kid, key.status.rawValue, key.createdAt, key.note].joined(separator: "  "))
                }
            } catch {
                throw InvalidInput("\(error)")
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a next key, or make the next key current once it has been published long enough.")

        @OptionGroup var target: Target

        @Flag(help: "Promote the next key now, however recently it was published (a compromised current key).")
        var force = false

        func run() async throws {
            try target.change { try SigningKeyFile.rotate(path: $0, algorithms: $1, timing: $2, force: force) }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the previous keys once every token they signed has expired.")

        @OptionGroup var target: Target

        @Flag(help: "Remove them even though tokens they signed may still be in use (those tokens stop verifying).")
        var force = false

        func run() async throws {
            try target.change { try SigningKeyFile.retire(path: $0, algorithms: $1, timing: $2, force: force) }
        }
    }

}
