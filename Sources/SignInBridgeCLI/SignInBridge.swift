import ArgumentParser

@main
struct SignInBridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin-bridge",
        abstract: "App-to-app sign-in for storage hosts and partner apps (Office, Vipps/MobilePay, SPiD).",
        discussion: """
            Examples:
              signin-bridge challenge parse 'Bearer authorization_uri="https://contoso.com/authorize",tokenIssuance_uri="https://contoso.com/token"'
              signin-bridge url decode 'ms-word-tp:code=abc&action=42'
            """,
        version: "0.1.0",
        subcommands: [
            ChallengeCommand.self, URLCommand.self, ServeCommand.self, ConfigCommand.self, TokenCommand.self,
            LintCommand.self, UserCommand.self, KeysCommand.self, MigrateCommand.self, ConformCommand.self,
        ]
    )

    /// Exit statuses 0 ok, 1 invalid input, 2 usage, for every subcommand (see CLIExit).
    static func main() async { await CLIExit.main(Self.self) }
}
