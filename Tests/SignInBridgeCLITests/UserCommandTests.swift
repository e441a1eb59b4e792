import Foundation
import Testing

/// `signin-bridge user add|passwd|remove`, run as an operator would, with the password on stdin.
@Suite("CLI: user add, passwd, remove")
struct UserCommandTests {
    static func config() throws -> String {
        try ServerCommandsTests.temporaryConfig { $0.replacingOccurrences(of: "bcryptCost: 12", with: "bcryptCost: 4") }
    }

    @Test func addPasswdAndRemoveAUser() throws {
        let path = try Self.config()
        let add = try CLIRunner.run(
            ["user", "add", "--config", path, "bob", "--sign-in-name", "bob@example.com", "--friendly-name", "Bob",
             "--password-stdin"], input: "first password\n")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("added user bob"))
        #expect(!add.stdout.contains("first password") && !add.stderr.contains("first password"))

        let duplicate = try CLIRunner.run(
            ["user", "add", "--config", path, "bob", "--sign-in-name", "other@example.com", "--password-stdin"], input: "x\n")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("exists already"))

        let passwd = try CLIRunner.run(["user", "passwd", "--config", path, "bob", "--password-stdin"], input: "second\n")
        #expect(passwd.status == 0, "\(passwd.stderr)")
        #expect(passwd.stderr.contains("password changed for bob; ended 0 session(s), revoked 0 grant(s)"))

        // Office manual test 10: tokens issued before the change stop working (their grant is revoked).
        let unknown = try CLIRunner.run(["user", "passwd", "--config", path, "nobody", "--password-stdin"], input: "x\n")
        #expect(unknown.status == 1 && unknown.stderr.contains("no user \"nobody\""))

        let remove = try CLIRunner.run("user", "remove", "--config", path, "bob")
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try CLIRunner.run("user", "remove", "--config", path, "bob").status == 1)
    }

    @Test func passwordsAreNeverOptionValuesAndEmptyOnesAreRefused() throws {
        let path = try Self.config()
        let flag = try CLIRunner.run("user", "add", "--config", path, "eve", "--sign-in-name", "eve@x", "--password", "pw")
        #expect(flag.status == 2)
        let empty = try CLIRunner.run(
            ["user", "add", "--config", path, "eve", "--sign-in-name", "eve@x", "--password-stdin"], input: "\n")
        #expect(empty.status == 1 && empty.stderr.contains("the password is empty"))
        // Without a terminal and without --password-stdin there is nobody to prompt.
        let noTTY = try CLIRunner.run("user", "add", "--config", path, "eve", "--sign-in-name", "eve@x")
        #expect(noTTY.status == 2 && noTTY.stderr.contains("--password-stdin"))
    }

    @Test func passwdRevokesTokensIssuedBefore() throws {
        let path = try Self.config()
        let token = try CLIRunner.run("token", "issue", "--config", path, "--user", "demo", "--client", "office")
        #expect(token.status == 0, "\(token.stderr)")
        let passwd = try CLIRunner.run(["user", "passwd", "--config", path, "demo", "--password-stdin"], input: "changed\n")
        #expect(passwd.status == 0, "\(passwd.stderr)")
        #expect(passwd.stderr.contains("revoked 1 grant(s)"))
    }
}
