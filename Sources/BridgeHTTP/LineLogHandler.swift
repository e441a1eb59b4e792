import Logging
import SignInProtocolCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line per log event, as logfmt (`ts=… level=info msg=request status=401`) or JSON, so log shippers can parse
/// it. `log(event:)` only captures the event; `LogLineWriter` formats and writes it on its own thread. Metadata
/// values are printed as given; callers never pass secrets (no header or token is ever logged by SignInBridge).
public struct LineLogHandler: LogHandler {
    public enum Format: String, Sendable { case logfmt, json }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: Format
    let writer: LogLineWriter

    public init(label: String, format: Format, level: Logger.Level, writer: LogLineWriter = .standardError) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.writer = writer
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let now = LogTimestamp.now()
        var merged = metadata
        if let extra = event.metadata {
            if merged.isEmpty { merged = extra } else { merged.merge(extra) { _, new in new } }
        }
        writer.enqueue(
            .init(
                seconds: now.tv_sec, nanoseconds: now.tv_nsec, level: event.level, message: event.message.description,
                metadata: merged, format: format))
    }

    /// `ts`, `level`, `msg`, then the metadata sorted by key, and a newline.
    package static func appendLine(_ record: LogLineWriter.Record, timestamp: inout LogTimestamp, to bytes: inout [UInt8]) {
        var time = timespec()
        time.tv_sec = record.seconds
        time.tv_nsec = record.nanoseconds
        var stamp: [UInt8] = []
        timestamp.append(time, to: &stamp)
        let keys = record.metadata.keys.sorted()
        switch record.format {
        case .logfmt:
            bytes += "ts=".utf8
            bytes += stamp
            bytes += " level=".utf8
            bytes += record.level.rawValue.utf8
            bytes += " msg=".utf8
            appendLogfmtValue(record.message, to: &bytes)
            for key in keys {
                bytes.append(UInt8(ascii: " "))
                bytes += key.utf8
                bytes.append(UInt8(ascii: "="))
                appendLogfmtValue("\(record.metadata[key]!)", to: &bytes)
            }
        case .json:
            bytes += "{\"ts\":\"".utf8
            bytes += stamp
            bytes += "\",\"level\":\"".utf8
            bytes += record.level.rawValue.utf8
            bytes += "\",\"msg\":".utf8
            JSONText.appendQuoted(record.message, to: &bytes)
            for key in keys {
                bytes.append(UInt8(ascii: ","))
                JSONText.appendQuoted(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                JSONText.appendQuoted("\(record.metadata[key]!)", to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Bare when it can be, else a JSON string literal (logfmt's quoting).
    static func appendLogfmtValue(_ value: String, to bytes: inout [UInt8]) {
        let needsQuotes = value.isEmpty || value.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == 0x7F }
        if needsQuotes { JSONText.appendQuoted(value, to: &bytes) } else { bytes += value.utf8 }
    }

    /// One formatted line, for tests.
    package static func line(_ record: LogLineWriter.Record) -> String {
        var timestamp = LogTimestamp()
        var bytes: [UInt8] = []
        appendLine(record, timestamp: &timestamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
