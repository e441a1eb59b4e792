import Foundation
import Testing

/// `signin-bridge keys list|rotate|retire` on the key file a configuration names, as an operator runs them: each
/// step that comes too early is refused with exit status 1 and changes nothing.
@Suite("CLI: keys list, rotate, retire")
struct KeysCommandTests {
    static func lines(_ output: String, status: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.contains("  \(status)  ") }
    }

    @Test func aRotationStepByStep() throws {
        let config = try ServerCommandsTests.temporaryConfig()
        let none = try CLIRunner.run("keys", "list", "--config", config)
        #expect(none.status == 1 && none.stderr.contains("does not exist yet"), "\(none.stderr)")

        // On a missing file, rotate first creates it (as serve would), then adds the next keys.
        let add = try CLIRunner.run("keys", "rotate", "--config", config)
        #expect(add.status == 0 && add.stdout.contains("ES256: added next key") && add.stdout.contains("RS256: added next key"))
        #expect(Self.lines(try CLIRunner.run("keys", "list", "--config", config).stdout, status: "current").count == 2)
        let early = try CLIRunner.run("keys", "rotate", "--config", config, "--alg", "RS256")
        #expect(early.status == 1 && early.stderr.contains("RS256: next key") && early.stderr.contains("may sign from"))
        let next = Self.lines(try CLIRunner.run("keys", "list", "--config", config).stdout, status: "next")
        #expect(next.count == 2 && next.allSatisfy { $0.contains("may sign from") })

        let promote = try CLIRunner.run("keys", "rotate", "--config", config, "--force")
        #expect(promote.status == 0, "\(promote.stderr)")
        let listed = try CLIRunner.run("keys", "list", "--config", config, "--alg", "ES256").stdout
        #expect(Self.lines(listed, status: "previous").first?.contains("may be retired from") == true, "\(listed)")
        #expect(!listed.contains("RS256"))

        let retire = try CLIRunner.run("keys", "retire", "--config", config)
        #expect(retire.status == 1 && retire.stderr.contains("may be verified until"), "\(retire.stderr)")
        let forced = try CLIRunner.run("keys", "retire", "--config", config, "--force")
        #expect(forced.status == 0 && forced.stdout.components(separatedBy: "retired key").count == 3, "\(forced.stdout)")
        let after = try CLIRunner.run("keys", "list", "--config", config).stdout
        #expect(Self.lines(after, status: "current").count == 2 && Self.lines(after, status: "previous").isEmpty)
    }

    @Test func anUnknownAlgorithmIsRefused() throws {
        let config = try ServerCommandsTests.temporaryConfig()
        let result = try CLIRunner.run("keys", "rotate", "--config", config, "--alg", "HS256")
        #expect(result.status == 1 && result.stderr.contains("--alg: expected ES256 or RS256, got HS256"))
    }
}
