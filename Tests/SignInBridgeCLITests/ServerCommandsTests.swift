import Foundation
import Testing

/// `config check`, `token issue` and `serve`'s refusal of bad configuration, run as a user would run them.
@Suite("CLI: config check, token issue, serve")
struct ServerCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sample = root.appendingPathComponent("samples/bridge.yaml").path

    /// The sample with its data files moved into a fresh temporary folder.
    static func temporaryConfig(_ edit: (String) -> String = { $0 }) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bridge-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let yaml = try String(contentsOfFile: sample, encoding: .utf8)
            .replacingOccurrences(of: "path: data/bridge.sqlite", with: "path: \(directory.path)/bridge.sqlite")
            .replacingOccurrences(of: "file: data/signing-keys.json", with: "file: \(directory.path)/keys.json")
        let path = directory.appendingPathComponent("bridge.yaml").path
        try edit(yaml).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func configCheckAcceptsTheSample() throws {
        let result = try CLIRunner.run("config", "check", Self.sample)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok"))
    }

    @Test func configCheckAndServeExit2NamingTheKeyPath() throws {
        let path = try Self.temporaryConfig { $0.replacingOccurrences(of: "  port: 8080", with: "  port: eighty") }
        for arguments in [["config", "check", path], ["serve", "--config", path]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("listen.port"), "\(result.stderr)")
            #expect(result.stderr.contains("expected integer"), "\(result.stderr)")
        }
    }

    @Test func missingFileIsAConfigurationError() throws {
        let result = try CLIRunner.run("config", "check", "/nonexistent/bridge.yaml")
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read"))
    }

    @Test func tokenIssuePrintsASignedJWTAndCreatesTheKeyFile() throws {
        let path = try Self.temporaryConfig()
        let result = try CLIRunner.run("token", "issue", "--config", path, "--user", "demo", "--client", "office")
        #expect(result.status == 0, "\(result.stderr)")
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.split(separator: ".").count == 3)
        #expect(result.stderr.contains("expires"))
        let keyFile = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("keys.json").path
        let permissions = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func tokenIssueRefusesUnknownUsersAndClients() throws {
        let path = try Self.temporaryConfig()
        let user = try CLIRunner.run("token", "issue", "--config", path, "--user", "mallory", "--client", "office")
        #expect(user.status == 2)
        #expect(user.stderr.contains("unknown user"))
        let client = try CLIRunner.run("token", "issue", "--config", path, "--user", "demo", "--client", "nobody")
        #expect(client.status == 2)
        #expect(client.stderr.contains("unknown client"))
    }
}
