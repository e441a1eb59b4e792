import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go: callers (event loops, request tasks) only append a record under a lock; one thread of its
/// own formats the records and writes them to the file descriptor, every `flushInterval` or sooner when many are
/// waiting. So a request never formats a date or waits for a write, a line is written whole by one `write(2)`
/// stream (never interleaved), and a slow, full or closed output costs lines, never the server: past `maxPending`
/// records new ones are counted and dropped, a failed write is given up, and `SIGPIPE` is ignored.
public final class LogLineWriter: @unchecked Sendable {
    /// The process's standard error, where `signin-bridge serve` logs.
    public static let standardError = LogLineWriter(fileDescriptor: 2)

    /// One event as captured on the caller's thread; formatted later on the writer's.
    package struct Record: Sendable {
        package var seconds: Int
        package var nanoseconds: Int
        package var level: Logger.Level
        package var message: String
        package var metadata: Logger.Metadata
        package var format: LineLogHandler.Format
    }

    let fileDescriptor: Int32
    let flushInterval: TimeInterval
    let maxPending: Int
    /// Wakes the writer before the timer once this many records wait.
    private let batchSize = 4096
    /// Formatted bytes are written once this many are ready, so the writer's buffer stays small after a backlog.
    private let writeChunkBytes = 64 * 1024

    private let condition = NSCondition()
    private var pending: [Record] = []
    private var flushWanted = false
    /// Records handed over so far (written, failed or dropped), and how many of them are done.
    private var accepted = 0
    private var completed = 0
    private var dropped = 0
    private var failedWrites = 0
    /// The most records that waited at once since the start (published on `/metrics`).
    private var peakPending = 0

    /// - Parameters:
    ///   - flushInterval: the longest a line waits before it is written.
    ///   - maxPending: records kept while the output is slow; beyond it lines are dropped (and counted).
    public init(fileDescriptor: Int32, flushInterval: TimeInterval = 0.05, maxPending: Int = 100_000) {
        self.fileDescriptor = fileDescriptor
        self.flushInterval = flushInterval
        self.maxPending = maxPending
        // A closed pipe must fail the write with EPIPE, not end the process.
        signal(SIGPIPE, SIG_IGN)
        Thread.detachNewThread { [self] in run() }
    }

    package func enqueue(_ record: Record) {
        condition.lock()
        accepted += 1
        if pending.count >= maxPending {
            dropped += 1
        } else {
            pending.append(record)
            if pending.count > peakPending { peakPending = pending.count }
            if pending.count == batchSize { condition.broadcast() }
        }
        condition.unlock()
    }

    /// Returns once every record enqueued before the call has been written (or given up): at shutdown, in tests.
    public func flush() {
        condition.lock()
        let target = accepted
        flushWanted = true
        condition.broadcast()
        while completed < target { condition.wait() }
        condition.unlock()
    }

    /// Lines given up so far: dropped while the output was too slow, or in writes that failed.
    public var lostLines: (dropped: Int, inFailedWrites: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (dropped, failedWrites)
    }

    /// Records waiting for the writer now, and the most that ever waited at once.
    public var queueLength: (now: Int, peak: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (pending.count, peakPending)
    }

    private func run() {
        var timestamp = LogTimestamp()
        var bytes: [UInt8] = []
        var batch: [Record] = []
        var reportedDrops = 0
        while true {
            condition.lock()
            if !flushWanted && pending.count < batchSize {
                _ = condition.wait(until: Date(timeIntervalSinceNow: flushInterval))
            }
            swap(&batch, &pending)
            flushWanted = false
            let droppedSoFar = dropped
            let doneWithDrops = accepted - completed - batch.count
            condition.unlock()

            bytes.removeAll(keepingCapacity: true)
            var written = true
            for record in batch {
                LineLogHandler.appendLine(record, timestamp: &timestamp, to: &bytes)
                if bytes.count >= writeChunkBytes {
                    written = write(bytes) && written
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            if droppedSoFar > reportedDrops {
                let now = LogTimestamp.now()
                let notice = Record(
                    seconds: now.tv_sec, nanoseconds: now.tv_nsec, level: .warning, message: "log lines dropped",
                    metadata: ["count": "\(droppedSoFar - reportedDrops)", "reason": "output too slow"],
                    format: batch.last?.format ?? .logfmt)
                LineLogHandler.appendLine(notice, timestamp: &timestamp, to: &bytes)
                reportedDrops = droppedSoFar
            }
            written = write(bytes) && written

            condition.lock()
            if !written { failedWrites += batch.count }
            completed += batch.count + doneWithDrops
            condition.broadcast()
            condition.unlock()
            // The arrays take turns as `pending`: a backlog's capacity is given back rather than kept for good.
            if batch.capacity > batchSize { batch = [] } else { batch.removeAll(keepingCapacity: true) }
        }
    }

    /// Writes all of `bytes`; false when the output refuses them (closed, full disk, bad descriptor).
    private func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if result > 0 {
                offset += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
