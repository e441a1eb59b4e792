import Foundation
import Testing

/// `--fetch` as users run it: `signin-bridge lint --fetch` fetches over TLS from a local host, and the standalone
/// `signin-bridge-lint`, which links no HTTPS client, refuses it with a usage error that names the command to use.
@Suite struct FetchCommandTests {
    @Test func signinBridgeLintFetchesOverTLS() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try TestCertificateAuthority()
        let caFile = try authority.writeCA(to: folder)
        let host = AssociationHost(answers: ["assetlinks.json": .init(body: WellKnownFetchTests.assetLinks)])
        let result = try await host.serve(with: authority) { origin in
            try await Executable.runOnThreadOfItsOwn(
                "signin-bridge", ["lint", "--fetch", origin, "--ca-certificate", caFile, "--format", "json"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"rule\" : \"well-known-served\""), "\(result.stdout)")
        #expect(result.stdout.contains("/.well-known/assetlinks.json"))
    }

    @Test func standaloneRefusesFetchAndNamesTheCommandThatHasIt() throws {
        for arguments in [["--fetch", "https://files.example.com"], ["--fetch", "http://files.example.com", "."]] {
            let result = try Executable.run("signin-bridge-lint", arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("run `signin-bridge lint --fetch …` instead"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}

/// An executable SwiftPM built next to the tests (the products directory), run to its end.
enum Executable {
    /// `run`, waiting on a thread of its own: a test whose in-process host must answer the child cannot block one of
    /// the two threads the host's tasks share with the parallel tests (the host then missed the child's deadline).
    static func runOnThreadOfItsOwn(
        _ name: String, _ arguments: [String]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try run(name, arguments) }) }.start()
        }
    }

    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let candidates = (Bundle.allBundles + [Bundle.main]).flatMap { bundle in
            [bundle.bundleURL.deletingLastPathComponent(), bundle.bundleURL].map { $0.appendingPathComponent(name) }
        }
        let binary = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "\(name) not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let stdout = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        defer { for file in [stdout, stderr] { try? FileManager.default.removeItem(at: file) } }
        // Files rather than pipes: nothing to drain while the child runs.
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: stdout, encoding: .utf8), try String(contentsOf: stderr, encoding: .utf8))
    }
}
