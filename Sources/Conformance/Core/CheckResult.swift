import Foundation

/// The printed verdict of one check.
public enum CheckStatus: String, Sendable, Codable, CaseIterable {
    case pass = "PASS"
    case fail = "FAIL"
    case warn = "WARN"
    case skip = "SKIP"
}

/// One check's verdict with its metadata.
public struct CheckResult: Sendable, Hashable, Codable {
    public var check: CheckDescriptor
    public var status: CheckStatus
    public var detail: String
    public var durationSeconds: Double

    /// Maps an outcome to a status: a broken SHOULD or informational rule is a warning, not a failure.
    public init(check: CheckDescriptor, outcome: CheckOutcome, durationSeconds: Double) {
        self.check = check
        self.durationSeconds = durationSeconds
        switch outcome {
        case .pass(let detail): (status, self.detail) = (.pass, detail)
        case .fail(let detail): (status, self.detail) = (check.level == .must ? .fail : .warn, detail)
        case .warn(let detail): (status, self.detail) = (.warn, detail)
        case .skip(let detail): (status, self.detail) = (.skip, detail)
        }
    }
}

/// Everything a run found: the results in registry order and the exchanges it observed.
public struct ConformanceReport: Sendable, Codable {
    public var target: String
    public var startedAt: Date
    public var results: [CheckResult]
    public var exchanges: [RecordedExchange]

    public init(target: String, startedAt: Date, results: [CheckResult], exchanges: [RecordedExchange]) {
        self.target = target
        self.startedAt = startedAt
        self.results = results
        self.exchanges = exchanges
    }

    public func count(_ status: CheckStatus) -> Int { results.filter { $0.status == status }.count }

    /// Every MUST held (FAIL is only ever given to a MUST).
    public var passed: Bool { count(.fail) == 0 }

    /// `N passed, N failed`, then skipped and warned, as the text output's last line.
    public var summaryLine: String {
        "\(count(.pass)) passed, \(count(.fail)) failed, \(count(.warn)) warned, \(count(.skip)) skipped"
    }
}
