import Foundation
import Logging
import Testing

@testable import BridgeHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Request logs leave the caller at once and reach the output whole: no line lost or interleaved under concurrent
/// load, and an output that fails (closed pipe, full disk) costs lines, not the process.
@Suite("Log line writer")
struct LogLineWriterTests {
    static func temporaryFile() -> (path: String, fd: Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bridge-log-\(UUID().uuidString)").path
        return (path, open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
    }

    @Test(arguments: [LineLogHandler.Format.logfmt, .json])
    func concurrentLinesArriveWholeAndExactlyOnce(format: LineLogHandler.Format) async throws {
        let (path, fd) = Self.temporaryFile()
        defer { close(fd); unlink(path) }
        let writer = LogLineWriter(fileDescriptor: fd, flushInterval: 0.01)
        let tasks = 8
        let perTask = 5_000
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let logger = Logger(label: "t") { LineLogHandler(label: $0, format: format, level: .info, writer: writer) }
                    for index in 0..<perTask {
                        // Values that need quoting, so a torn line could not pass for a whole one.
                        logger.info("request", metadata: ["task": "\(task)", "index": "\(index)", "path": "/a b=\"c\""])
                    }
                }
            }
        }
        writer.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the output ends with a newline")
        var seen = Set<String>()
        for line in lines.dropLast() {
            let key: String?
            switch format {
            case .logfmt:
                // ts=YYYY-MM-DDTHH:MM:SS.mmmZ, then the fields in key order (no Regex: it is slow in debug builds).
                let bytes = Array(line.utf8)
                let shape = Array("ts=dddd-dd-ddTdd:dd:dd.dddZ ".utf8)
                let stamped = bytes.count > shape.count
                    && zip(bytes, shape).allSatisfy { $1 == UInt8(ascii: "d") ? (48...57).contains($0) : $0 == $1 }
                let fields = stamped ? line.dropFirst(shape.count).components(separatedBy: " ") : []
                let index = fields.count == 6 ? fields[2].dropFirst("index=".count) : ""
                let task = fields.count == 6 ? fields[5].dropFirst("task=".count) : ""
                let expected = "level=info msg=request index=\(index) path=\"/a b=\\\"c\\\"\" task=\(task)"
                key = stamped && line.dropFirst(shape.count) == expected ? "\(task)/\(index)" : nil
            case .json:
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
                key = object.flatMap { o in o["path"] == "/a b=\"c\"" && o["msg"] == "request" ? "\(o["task"]!)/\(o["index"]!)" : nil }
            }
            let parsed = try #require(key, "a torn or malformed line: \(line)")
            #expect(seen.insert(parsed).inserted, "written twice: \(line)")
        }
        #expect(seen.count == tasks * perTask)
        #expect(writer.lostLines == (0, 0))
    }

    @Test func aClosedPipeCostsLinesNotTheProcess() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // nobody will ever read: writes fail with EPIPE (SIGPIPE is ignored)
        defer { close(ends[1]) }
        let writer = LogLineWriter(fileDescriptor: ends[1], flushInterval: 0.01)
        let logger = Logger(label: "t") { LineLogHandler(label: $0, format: .logfmt, level: .info, writer: writer) }
        for index in 0..<100 { logger.info("request", metadata: ["index": "\(index)"]) }
        writer.flush()
        #expect(writer.lostLines.inFailedWrites == 100)
        logger.info("still running")
        writer.flush()
        #expect(writer.lostLines.inFailedWrites == 101)
    }

    @Test func aBacklogPastTheLimitIsCountedDroppedAndReported() throws {
        let (path, fd) = Self.temporaryFile()
        defer { close(fd); unlink(path) }
        // The writer sleeps a minute between rounds unless flushed: every record below waits in the queue.
        let writer = LogLineWriter(fileDescriptor: fd, flushInterval: 60, maxPending: 50)
        let logger = Logger(label: "t") { LineLogHandler(label: $0, format: .logfmt, level: .info, writer: writer) }
        for index in 0..<80 { logger.info("request", metadata: ["index": "\(index)"]) }
        #expect(writer.queueLength == (now: 50, peak: 50))
        writer.flush()
        #expect(writer.queueLength == (now: 0, peak: 50))
        #expect(writer.lostLines == (dropped: 30, inFailedWrites: 0))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 51)
        #expect(lines.first?.hasSuffix("index=0") == true)
        #expect(lines[49].hasSuffix("index=49"))
        #expect(lines.last?.hasSuffix("level=warning msg=\"log lines dropped\" count=30 reason=\"output too slow\"") == true)
    }

    @Test func aFullDiskCostsLinesNotTheProcess() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "/dev/full is missing")
        defer { close(fd) }
        let writer = LogLineWriter(fileDescriptor: fd, flushInterval: 0.01)
        let logger = Logger(label: "t") { LineLogHandler(label: $0, format: .json, level: .info, writer: writer) }
        for _ in 0..<10 { logger.info("request") }
        writer.flush()
        #expect(writer.lostLines.inFailedWrites == 10)
    }

    @Test func timestampsMatchFoundationsISO8601() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var timestamp = LogTimestamp()
        for (seconds, nanoseconds) in [(0, 0), (1_795_555_805, 123_456_789), (1_795_555_805, 999_999_999), (951_782_400, 7_000_000)] {
            var time = timespec()
            time.tv_sec = seconds
            time.tv_nsec = nanoseconds
            var bytes: [UInt8] = []
            timestamp.append(time, to: &bytes)
            let millis = Double(nanoseconds / 1_000_000) / 1000
            #expect(String(decoding: bytes, as: UTF8.self) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds) + millis)))
        }
    }

    @Test func wholeSecondTimestampsMatchFoundationsISO8601() {
        let formatter = ISO8601DateFormatter()
        for seconds in [0, 1_795_555_805.999, 951_782_400.5, -86_400.25, 4_102_444_799] as [Double] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(LogTimestamp.utcSeconds(date) == formatter.string(from: date), "\(seconds)")
        }
    }

    @Test func aLineHasTheDocumentedShape() {
        let record = LogLineWriter.Record(
            seconds: 1_795_555_805, nanoseconds: 42_000_000, level: .info, message: "request",
            metadata: ["status": "401", "path": "/wopibootstrapper", "duration_ms": .stringConvertible(LogDuration(nanoseconds: 1_234_567))],
            format: .logfmt)
        #expect(
            LineLogHandler.line(record)
                == "ts=2026-11-24T21:30:05.042Z level=info msg=request duration_ms=1.23 path=/wopibootstrapper status=401\n")
        var json = record
        json.format = .json
        #expect(
            LineLogHandler.line(json)
                == #"{"ts":"2026-11-24T21:30:05.042Z","level":"info","msg":"request","duration_ms":"1.23","path":"/wopibootstrapper","status":"401"}"# + "\n")
    }

    @Test func durationsHaveTwoDecimals() {
        #expect(LogDuration(nanoseconds: 0).description == "0.00")
        #expect(LogDuration(nanoseconds: 4_999).description == "0.00")
        #expect(LogDuration(nanoseconds: 5_000).description == "0.01")
        #expect(LogDuration(nanoseconds: 1_050_000).description == "1.05")
        #expect(LogDuration(.seconds(2) + .milliseconds(7)).description == "2007.00")
    }
}
