import Foundation
import Testing

/// Runs the built `signin-bridge` executable as a child process, the way a user or a script would.
///
/// Other command test files use it as `try CLIRunner.run("url", "decode", …)`.
enum CLIRunner {
    /// Children are started one at a time: swift-corelibs-foundation's `Process.run()` crashed in a `memcpy` when
    /// two suites of the parallel run started children at the same moment (seen in CI under load).
    static let launches = NSLock()

    static func launch(_ process: Process) throws {
        launches.lock()
        defer { launches.unlock() }
        try process.run()
    }

    /// Runs an executable built next to `signin-bridge` (a sample target), stdout only.
    static func runSibling(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: String) {
        let cli = try #require(executable)
        let process = Process()
        process.executableURL = cli.deletingLastPathComponent().appendingPathComponent(name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try launch(process)
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Where `swift build` put the executable: `SIGNIN_BRIDGE` if set, else next to the test bundle (the products
    /// directory, whatever the configuration or scratch path), else `.build/debug` of this package.
    static let executable: URL? = {
        if let path = ProcessInfo.processInfo.environment["SIGNIN_BRIDGE"] { return URL(fileURLWithPath: path) }
        var candidates = [URL]()
        for bundle in Bundle.allBundles + [Bundle.main] {
            var directory = bundle.bundleURL.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent("signin-bridge"))
            // On macOS the xctest bundle sits in the products directory; on Linux the runner binary does.
            directory = bundle.bundleURL
            candidates.append(directory.appendingPathComponent("signin-bridge"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/signin-bridge"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static func run(_ arguments: String...) throws -> Output { try run(arguments) }

    /// `environment` is added to this process's own.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Output {
        let binary = try #require(executable, "signin-bridge was not built next to the tests; set SIGNIN_BRIDGE")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try launch(process)
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes to the end before waiting, so a large output cannot fill a pipe and stall the child.
        let errorData = ReadAll(stderr.fileHandleForReading)
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Drains a pipe on another thread.
    private final class ReadAll: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
