import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `signin-bridge serve` as a process: it answers on a real socket, and SIGTERM stops it gracefully (the store is
/// closed after the HTTP server drains, exit status 0).
@Suite("CLI: serve lifecycle")
struct ServeLifecycleTests {
    @Test func serveAnswersThenStopsCleanlyOnSIGTERM() async throws {
        let config = try ServerCommandsTests.temporaryConfig()
        let (process, log) = try LogCollector.serve(["--config", config, "--port", "0"])
        defer { if process.isRunning { process.terminate() } }

        // The "listening" line names the port the kernel picked.
        var port: Int?
        for _ in 0..<200 where port == nil {
            try await Task.sleep(for: .milliseconds(50))
            port = log.text.firstMatch(of: /address=127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) }
        }
        let listening = try #require(port, "no listening line in: \(log.text)")

        let url = try #require(URL(string: "http://127.0.0.1:\(listening)/wopibootstrapper"))
        let (_, response) = try await URLSession.shared.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 401)
        #expect((http.value(forHTTPHeaderField: "WWW-Authenticate") ?? "").hasPrefix("Bearer authorization_uri="))

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(log.text.contains("msg=\"store closed\""), "\(log.text)")
    }
}

/// Collects a pipe's text on a background thread.
final class LogCollector: @unchecked Sendable {
    /// `signin-bridge serve` with `arguments` as a child process, and its standard error.
    static func serve(_ arguments: [String]) throws -> (Process, LogCollector) {
        let process = Process()
        process.executableURL = CLIRunner.executable  // nil makes run() throw
        process.arguments = ["serve"] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try CLIRunner.launch(process)
        return (process, LogCollector(stderr.fileHandleForReading))
    }

    private let lock = NSLock()
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                lock.lock()
                data.append(chunk)
                lock.unlock()
            }
        }
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
