import Foundation

/// The findings a project accepted on the day it adopted the linter (`--write-baseline FILE`); with
/// `--baseline FILE` only findings not in it are reported. As Android Lint's baseline does, a finding is matched by
/// rule, file and message, not by line, so that edits above it do not bring it back; each recorded finding
/// absorbs one finding of a run. https://developer.android.com/studio/write/lint#snapshot
public struct Baseline: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var rule: String
        /// Relative to the baseline file's folder (absolute when the file lies elsewhere).
        public var file: String
        public var message: String
    }

    public var format: Int
    public var tool: String
    public var findings: [Entry]

    static let currentFormat = 1
    static let maxBytes = 16 * 1024 * 1024

    /// The baseline of `findings`, paths relative to the folder of `path` (where it will be written).
    public init(findings: [Finding], path: String) {
        let folder = Self.folder(of: path)
        format = Self.currentFormat
        tool = "signin-bridge lint"
        self.findings = findings.map { Entry(rule: $0.ruleID, file: LintConfig.relative($0.file, to: folder), message: $0.message) }
    }

    public static func load(path: String) throws(LintUsageError) -> Baseline {
        let bytes = try LintInput.read(path, cap: maxBytes + 1)
        guard bytes.count <= maxBytes else { throw LintUsageError("\(path): the baseline is over \(maxBytes) bytes") }
        do {
            let baseline = try JSONDecoder().decode(Baseline.self, from: Data(bytes))
            guard baseline.format == currentFormat else {
                throw LintUsageError("\(path): baseline format \(baseline.format) is not \(currentFormat)")
            }
            return baseline
        } catch let error as LintUsageError {
            throw error
        } catch {
            throw LintUsageError("\(path): not a signin-bridge lint baseline (\(error))")
        }
    }

    public func write(to path: String) throws(LintUsageError) {
        let text = JSONReport.encode(self)
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw LintUsageError("\(path): cannot be written")
        }
    }

    /// The findings of a run that the baseline does not hold, and how many it absorbed. `path` is where the
    /// baseline was read from (its entries are relative to that folder).
    public func newFindings(_ findings: [Finding], baselinePath path: String) -> (new: [Finding], absorbed: Int) {
        let folder = Self.folder(of: path)
        var remaining = [Entry: Int]()
        for entry in self.findings { remaining[entry, default: 0] += 1 }
        var new = [Finding]()
        for finding in findings {
            let key = Entry(rule: finding.ruleID, file: LintConfig.relative(finding.file, to: folder), message: finding.message)
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
            } else {
                new.append(finding)
            }
        }
        return (new, findings.count - new.count)
    }

    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
