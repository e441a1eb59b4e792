import Foundation
import SignInProtocol

/// Where the UrlSchemes that manifests and plists are compared with comes from.
public enum UrlSchemesSource: Sendable, Hashable {
    /// `--url-schemes FILE`: a url_schemes.json.
    case file(String)
    /// `--challenge HEADER`: a `WWW-Authenticate` value whose Bearer challenge carries `UrlSchemes`.
    case challenge(String)
}

public struct LintOptions: Sendable {
    /// nil: each manifest and plist uses the nearest url_schemes.json in its folder or above (up to the repository
    /// root, the folder holding `.git`).
    public var urlSchemes: UrlSchemesSource?
    public var targetSdk: Int?
    public var xmlLimits: XMLParseLimits

    public init(urlSchemes: UrlSchemesSource? = nil, targetSdk: Int? = nil, xmlLimits: XMLParseLimits = .default) {
        self.urlSchemes = urlSchemes
        self.targetSdk = targetSdk
        self.xmlLimits = xmlLimits
    }
}

/// Finds the files, pairs manifests and plists with their UrlSchemes, runs every check, collects the findings.
public struct Linter: Sendable {
    public var options: LintOptions

    public init(options: LintOptions = LintOptions()) {
        self.options = options
    }

    /// The pseudo-path findings about a `--challenge` value are reported under.
    public static let challengeLabel = "WWW-Authenticate UrlSchemes"

    /// Lints files and folders. Throws `LintUsageError` for a path that does not exist, a file that cannot be read
    /// or whose kind cannot be told, a `--challenge` that cannot be used, and when there is nothing to check.
    public func lint(paths: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) throws(LintUsageError) -> LintReport {
        var run = Run(options: options)
        if let source = options.urlSchemes { try run.loadExplicit(source) }
        for path in paths { try run.add(path) }
        for (index, file) in run.queue.enumerated() {
            try run.check(file)
            progress?(index + 1, run.queue.count)
        }
        // Pointing CI at the wrong folder must not pass silently.
        guard !run.checked.isEmpty else {
            throw LintUsageError(
                "no AndroidManifest.xml, Info.plist or url_schemes.json found in \(paths.joined(separator: ", "))")
        }
        return LintReport(files: run.checked, findings: run.findings)
    }

    private struct Run {
        let options: LintOptions
        var queue: [LintedFile] = []
        var checked: [LintedFile] = []
        var findings: [Finding] = []
        var explicit: (schemes: UrlSchemes?, label: String)?
        /// url_schemes.json files already parsed, by path (nil: not valid UrlSchemes).
        var parsedSchemes: [String: UrlSchemes?] = [:]
        var queued = Set<String>()

        init(options: LintOptions) { self.options = options }

        mutating func loadExplicit(_ source: UrlSchemesSource) throws(LintUsageError) {
            switch source {
            case .file(let path):
                let schemes = try checkUrlSchemes(path: path)
                explicit = (schemes, path)
            case .challenge(let header):
                let json = try Self.urlSchemesJSON(inChallenge: header)
                let (document, diagnoses) = FileLinter.urlSchemes(Array(json.utf8), context: LintContext())
                checked.append(LintedFile(path: Linter.challengeLabel, kind: .urlSchemes))
                findings += diagnoses.map { Finding($0, file: Linter.challengeLabel) }
                explicit = (document?.urlSchemes, "the challenge's UrlSchemes")
            }
        }

        static func urlSchemesJSON(inChallenge header: String) throws(LintUsageError) -> String {
            let challenges: [AuthenticationChallenge]
            do {
                challenges = try AuthenticationChallenge.parse(headerValues: [header])
            } catch {
                throw LintUsageError("--challenge: \(error)")
            }
            guard let bearer = challenges.first(where: { $0.hasScheme("Bearer") }) else {
                throw LintUsageError("--challenge: no Bearer challenge")
            }
            guard let encoded = bearer[parameter: BootstrapChallenge.ParameterName.urlSchemes] else {
                throw LintUsageError("--challenge: the Bearer challenge has no UrlSchemes parameter")
            }
            do {
                return try PercentEncoding.decode(encoded)
            } catch {
                throw LintUsageError("--challenge: UrlSchemes is not percent-encoded UTF-8: \(error)")
            }
        }

        mutating func add(_ path: String) throws(LintUsageError) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LintUsageError("\(path): no such file or folder")
            }
            if isDirectory.boolValue {
                for found in FileDiscovery.files(under: path) { enqueue(found) }
            } else {
                let name = (path as NSString).lastPathComponent
                guard let kind = FileKind(extensionOf: name) else {
                    throw LintUsageError(
                        "\(path): not an AndroidManifest.xml, Info.plist or url_schemes.json (nor .xml, .plist, .json)")
                }
                enqueue(LintedFile(path: path, kind: kind))
            }
        }

        mutating func enqueue(_ file: LintedFile) {
            guard queued.insert(Self.canonical(file.path)).inserted else { return }
            queue.append(file)
        }

        mutating func check(_ file: LintedFile) throws(LintUsageError) {
            switch file.kind {
            case .urlSchemes:
                if parsedSchemes[Self.canonical(file.path)] == nil { _ = try checkUrlSchemes(path: file.path) }
            case .androidManifest, .infoPlist:
                let context = try context(for: file.path)
                let bytes = try Self.read(file.path)
                checked.append(file)
                let diagnoses = FileLinter.lint(bytes, kind: file.kind, context: context, limits: options.xmlLimits)
                findings += diagnoses.map { Finding($0, file: file.path) }
            }
        }

        /// Lints a url_schemes.json once and remembers what it decodes to.
        mutating func checkUrlSchemes(path: String) throws(LintUsageError) -> UrlSchemes? {
            let key = Self.canonical(path)
            if let known = parsedSchemes[key] { return known }
            let bytes = try Self.read(path)
            let (document, diagnoses) = FileLinter.urlSchemes(bytes, context: LintContext())
            checked.append(LintedFile(path: path, kind: .urlSchemes))
            findings += diagnoses.map { Finding($0, file: path) }
            parsedSchemes[key] = .some(document?.urlSchemes)
            queued.insert(key)
            return document?.urlSchemes
        }

        mutating func context(for path: String) throws(LintUsageError) -> LintContext {
            if let explicit {
                return LintContext(urlSchemes: explicit.schemes, urlSchemesSource: explicit.label, targetSdkOverride: options.targetSdk)
            }
            guard let nearest = FileDiscovery.nearestUrlSchemes(for: path) else {
                return LintContext(targetSdkOverride: options.targetSdk)
            }
            let schemes = try checkUrlSchemes(path: nearest)
            return LintContext(urlSchemes: schemes, urlSchemesSource: nearest, targetSdkOverride: options.targetSdk)
        }

        static func read(_ path: String) throws(LintUsageError) -> [UInt8] {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw LintUsageError("\(path): cannot be read")
            }
            defer { try? handle.close() }
            // Read one byte past the largest limit so an oversized file is reported as such, not loaded whole.
            let cap = max(XMLParseLimits.default.maxBytes, UrlSchemesDocument.maxBytes) + 1
            do {
                return [UInt8](try handle.read(upToCount: cap) ?? Data())
            } catch {
                throw LintUsageError("\(path): cannot be read (\(error.localizedDescription))")
            }
        }

        static func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
    }
}
