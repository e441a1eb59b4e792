import Foundation

/// The report as JSON: target, start time, summary counts, results with their checks' metadata, and the exchanges.
public enum JSONOutput {
    struct Document: Encodable {
        var target: String
        var startedAt: Date
        var passed: Bool
        var counts: [String: Int]
        var results: [CheckResult]
        var exchanges: [RecordedExchange]
    }

    public static func render(_ report: ConformanceReport) throws -> String {
        let document = Document(
            target: report.target, startedAt: report.startedAt, passed: report.passed,
            counts: Dictionary(uniqueKeysWithValues: CheckStatus.allCases.map { ($0.rawValue.lowercased(), report.count($0)) }),
            results: report.results, exchanges: report.exchanges)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}
