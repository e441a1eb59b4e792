import Foundation
import Yams

/// `signin-bridge-lint.yaml` (or `--config FILE`): rules turned off or given another severity, for every file or
/// for files matching a path pattern, and the redirect URIs that mark sign-in receivers. docs/lint-config.md.
///
///     redirect-uris: [com.contoso.files:/oauth2redirect]
///     rules:
///       android-scheme-not-reverse-domain: off
///     paths:
///       - path: legacy/*
///         rules: { android-view-filter-not-browsable: info }
public struct LintConfig: Sendable, Hashable {
    /// What a rule becomes: left out, or reported with this severity.
    public enum Setting: Sendable, Hashable {
        case off
        case severity(Severity)
    }

    public struct PathOverride: Sendable, Hashable {
        /// An fnmatch(3) pattern over the file's path relative to the config file's folder (`*` crosses `/`).
        public var pattern: String
        public var rules: [String: Setting]
    }

    public var rules: [String: Setting]
    public var paths: [PathOverride]
    public var redirectURIs: [String]
    /// The folder path patterns are relative to (the config file's).
    public var folder: String

    public init(rules: [String: Setting] = [:], paths: [PathOverride] = [], redirectURIs: [String] = [], folder: String = ".") {
        self.rules = rules
        self.paths = paths
        self.redirectURIs = redirectURIs
        self.folder = folder
    }

    public static let fileName = "signin-bridge-lint.yaml"
    static let maxBytes = 256 * 1024

    /// Reads and checks a config file; every mistake is a `LintUsageError` naming the file and the key.
    public static func load(path: String) throws(LintUsageError) -> LintConfig {
        let bytes = try LintInput.read(path, cap: maxBytes + 1)
        guard bytes.count <= maxBytes else {
            throw LintUsageError("\(path): the file is over the limit of \(maxBytes) bytes")
        }
        let folder = (path as NSString).deletingLastPathComponent
        return try parse(String(decoding: bytes, as: UTF8.self), name: path, folder: folder.isEmpty ? "." : folder)
    }

    static func parse(_ text: String, name: String, folder: String) throws(LintUsageError) -> LintConfig {
        let node: Any?
        do {
            node = try Yams.load(yaml: text)
        } catch {
            throw LintUsageError("\(name): not YAML: \(error)")
        }
        guard let top = node as? [String: Any] else {
            if node == nil { return LintConfig(folder: folder) }
            throw LintUsageError("\(name): the top level must be a mapping with rules, paths and redirect-uris")
        }
        var config = LintConfig(folder: folder)
        for (key, value) in top {
            switch key {
            case "rules": config.rules = try settings(value, at: "\(name): rules")
            case "redirect-uris":
                guard let list = value as? [String] else { throw LintUsageError("\(name): redirect-uris must be a list of strings") }
                config.redirectURIs = list
            case "paths":
                guard let list = value as? [[String: Any]] else {
                    throw LintUsageError("\(name): paths must be a list of mappings with path and rules")
                }
                config.paths = try list.enumerated().map { (index, item) throws(LintUsageError) in
                    guard let pattern = item["path"] as? String, !pattern.isEmpty else {
                        throw LintUsageError("\(name): paths[\(index)] has no path")
                    }
                    return PathOverride(pattern: pattern, rules: try settings(item["rules"] ?? [:], at: "\(name): paths[\(index)].rules"))
                }
            default:
                throw LintUsageError("\(name): unknown key \"\(key)\" (known: rules, paths, redirect-uris)")
            }
        }
        return config
    }

    private static func settings(_ value: Any, at place: String) throws(LintUsageError) -> [String: Setting] {
        guard let map = value as? [String: Any] else { throw LintUsageError("\(place) must map rule ids to off, error, warning or info") }
        let known = Set(RuleCatalog.all.map(\.id))
        var settings = [String: Setting]()
        for (id, raw) in map {
            guard known.contains(id) else { throw LintUsageError("\(place): unknown rule \"\(id)\"") }
            // YAML 1.1 reads a bare `off` as false.
            let word = (raw as? Bool).map { $0 ? "on" : "off" } ?? (raw as? String) ?? ""
            switch word {
            case "off": settings[id] = .off
            case let level where Severity(rawValue: level) != nil: settings[id] = .severity(Severity(rawValue: level)!)
            default: throw LintUsageError("\(place).\(id): \"\(word)\" is not off, error, warning or info")
            }
        }
        return settings
    }

    /// The findings with the config applied: a path override that matches wins over the top-level rules, a later
    /// override over an earlier one.
    public func apply(_ findings: [Finding]) -> [Finding] {
        guard !(rules.isEmpty && paths.isEmpty) else { return findings }
        var matching = [String: [PathOverride]]()
        return findings.compactMap { finding in
            let overrides = matching[finding.file] ?? {
                let relative = Self.relative(finding.file, to: folder)
                let found = paths.filter { fnmatch($0.pattern, relative, 0) == 0 }
                matching[finding.file] = found
                return found
            }()
            let setting = overrides.reversed().lazy.compactMap { $0.rules[finding.ruleID] }.first ?? rules[finding.ruleID]
            switch setting {
            case nil: return finding
            case .off: return nil
            case .severity(let severity):
                var changed = finding
                changed.severity = severity
                return changed
            }
        }
    }

    /// `path` relative to `folder` when it lies below it, else the absolute path.
    static func relative(_ path: String, to folder: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
