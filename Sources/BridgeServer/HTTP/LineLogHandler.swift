import Foundation
import Logging
import SignInProtocol

/// Writes one line per log event to standard error, as logfmt (`ts=… level=info msg=request status=401`) or JSON,
/// so log shippers can parse it. Metadata values are printed as given; callers never pass secrets (no header or
/// token is ever logged by SignInBridge).
public struct LineLogHandler: LogHandler {
    public enum Format: String, Sendable { case logfmt, json }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: Format

    public init(label: String, format: Format, level: Logger.Level) {
        self.label = label
        self.format = format
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let timestamp = Self.timestamp()
        var fields: [(String, String)] = [("ts", timestamp), ("level", event.level.rawValue), ("msg", "\(event.message)")]
        for key in merged.keys.sorted() { fields.append((key, "\(merged[key]!)")) }
        let line: String
        switch format {
        case .logfmt: line = fields.map { "\($0.0)=\(Self.logfmtValue($0.1))" }.joined(separator: " ")
        case .json: line = "{" + fields.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1))" }.joined(separator: ",") + "}"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    static func logfmtValue(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0.isNewline }
        guard needsQuotes else { return value }
        return JSONText.quoted(value)
    }
}
