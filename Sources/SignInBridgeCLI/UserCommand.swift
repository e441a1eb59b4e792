import ArgumentParser
import BridgeServer
import BridgeStore
import Foundation

/// `signin-bridge user add|passwd|end-sessions|remove`: local accounts of the embedded default, in the server's store.
/// Passwords are read from stdin (`--password-stdin`) or typed at a prompt without echo, never taken as an option
/// value, so they stay out of shell history and `ps`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, change the password of, sign out, or remove a local user.",
        subcommands: [Add.self, Passwd.self, EndSessions.self, Remove.self])

    struct Target: ParsableArguments {
        @Option(help: "The YAML configuration file of the server (its store is changed).")
        var config: String

        @Argument(help: "The user id (sent to Office as UserId).")
        var id: String
    }

    struct PasswordSource: ParsableArguments {
        @Flag(help: "Read the password from the first line of stdin instead of prompting.")
        var passwordStdin = false
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user with a password.")

        @OptionGroup var target: Target

        @Option(help: "What the person types to sign in, e.g. an email address.")
        var signInName: String

        @Option(help: "A display name (Office's UserFriendlyName).")
        var friendlyName: String?

        @OptionGroup var source: PasswordSource

        func run() async throws {
            let loaded = try loadConfigurationOrExit(target.config).configuration
            let password = try readPassword(fromStdin: source.passwordStdin, confirm: true)
            try await withStore(loaded) { app in
                if try await app.store.user(id: target.id) != nil {
                    printToStandardError("user \"\(target.id)\" exists already; use `user passwd` to change the password")
                    throw ExitCode(1)
                }
                if try await app.store.user(signInName: signInName) != nil {
                    printToStandardError("the sign-in name \"\(signInName)\" is taken by another user")
                    throw ExitCode(1)
                }
                let hash = try await app.hashPassword(password)
                try await app.store.saveUser(
                    UserRecord(id: target.id, signInName: signInName, friendlyName: friendlyName, passwordHash: hash))
                printToStandardError("added user \(target.id) (\(signInName))")
            }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password; ends the user's sessions and revokes their grants and tokens.")

        @OptionGroup var target: Target
        @OptionGroup var source: PasswordSource

        func run() async throws {
            let loaded = try loadConfigurationOrExit(target.config).configuration
            let password = try readPassword(fromStdin: source.passwordStdin, confirm: true)
            try await withStore(loaded) { app in
                let result = try await app.changePassword(userID: target.id, to: password)
                guard let result else {
                    printToStandardError("no user \"\(target.id)\" in the store")
                    throw ExitCode(1)
                }
                printToStandardError(
                    "password changed for \(target.id); ended \(result.endedSessions) session(s), revoked \(result.revokedGrants) grant(s)")
            }
        }
    }

    struct EndSessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-sessions",
            abstract: "Sign a user out everywhere: end their browser sessions and Native SSO device sessions.")

        @OptionGroup var target: Target

        func run() async throws {
            let loaded = try loadConfigurationOrExit(target.config).configuration
            try await withStore(loaded) { app in
                let ended = try await app.store.endSessions(userID: target.id, at: Date())
                printToStandardError("ended \(ended) browser session(s) of \(target.id) and every device session")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a user, ending their sessions and revoking their grants and tokens.")

        @OptionGroup var target: Target

        func run() async throws {
            let loaded = try loadConfigurationOrExit(target.config).configuration
            if loaded.users.contains(where: { $0.id == target.id }) {
                printToStandardError(
                    "note: \"\(target.id)\" is also in users[] of \(target.config) and comes back at the next start; remove it there too")
            }
            try await withStore(loaded) { app in
                let now = Date()
                try await app.store.endSessions(userID: target.id, at: now)
                try await app.store.revokeGrants(userID: target.id, at: now)
                guard try await app.store.deleteUser(id: target.id) else {
                    printToStandardError("no user \"\(target.id)\" in the store")
                    throw ExitCode(1)
                }
                printToStandardError("removed user \(target.id)")
            }
        }
    }
}

/// Opens the store and keys of `configuration` (configuration users seeded), runs `body`, closes the store.
private func withStore(_ configuration: BridgeConfiguration, _ body: (BridgeServerApp) async throws -> Void) async throws {
    let runtime = try await ServerRuntime.open(configuration)
    do {
        try await runtime.app.seedUsers()
        try await body(runtime.app)
        try await runtime.app.store.close()
    } catch {
        try? await runtime.app.store.close()
        throw error
    }
}

/// The password from stdin's first line, or typed twice at a prompt without echo. Empty passwords are refused.
private func readPassword(fromStdin: Bool, confirm: Bool) throws -> String {
    let password: String
    if fromStdin {
        guard let line = readLine(strippingNewline: true) else {
            printToStandardError("--password-stdin: stdin is empty")
            throw ExitCode(2)
        }
        password = line
    } else {
        guard isatty(STDIN_FILENO) == 1 else {
            printToStandardError("stdin is not a terminal: pass --password-stdin and pipe the password in")
            throw ExitCode(2)
        }
        password = String(cString: getpass("Password: "))
        if confirm, String(cString: getpass("Repeat password: ")) != password {
            printToStandardError("the passwords differ")
            throw ExitCode(1)
        }
    }
    guard !password.isEmpty else {
        printToStandardError("the password is empty")
        throw ExitCode(1)
    }
    guard password.utf8.count <= 72 else {
        // bcrypt reads only the first 72 bytes; a longer one would silently be truncated.
        printToStandardError("the password is over 72 bytes, the most bcrypt uses")
        throw ExitCode(1)
    }
    return password
}
