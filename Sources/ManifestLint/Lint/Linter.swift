import Foundation
import SignInProtocolCore

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
    /// `--placeholder`, `--resources` and `--build-setting` values.
    public var buildValues: BuildValues
    /// `--redirect-uri` values (the config's `redirect-uris` are added to them).
    public var redirectURIs: [String]
    /// `signin-bridge-lint.yaml` or `--config`: rules off or at another severity, per path.
    public var config: LintConfig?
    /// `--baseline FILE`: findings already accepted, and the path they are relative to.
    public var baseline: (baseline: Baseline, path: String)?
    /// `--assetlinks HOST=FILE` or a folder of hosts: what each App Links host serves.
    public var assetLinks: [String] = []
    /// `--aasa DOMAIN=FILE` or a folder of domains: what each Universal Links domain serves.
    public var appSiteAssociations: [String] = []
    /// `--fetch`: association files as hosts served them; each is checked for how it was served, then like a file.
    public var fetched: [WellKnownResponse] = []
    /// `--signing-cert-sha256`: the Android app's signing certificate fingerprints.
    public var signingCertificates: [String] = []
    /// `--app-id TEAMID.bundle`: the iOS app ID when the entitlements do not give it.
    public var appID: String?

    public init(
        urlSchemes: UrlSchemesSource? = nil, targetSdk: Int? = nil, xmlLimits: XMLParseLimits = .default,
        buildValues: BuildValues = .none, redirectURIs: [String] = [], config: LintConfig? = nil,
        baseline: (baseline: Baseline, path: String)? = nil
    ) {
        self.urlSchemes = urlSchemes
        self.targetSdk = targetSdk
        self.xmlLimits = xmlLimits
        self.buildValues = buildValues
        self.redirectURIs = redirectURIs
        self.config = config
        self.baseline = baseline
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

    /// Lints one file's bytes as a file of `kind`: parse, validate and every rule of that kind, without discovery,
    /// UrlSchemes pairing or cross-checks (an editor integration's or a fuzzer's entry point).
    public func lint(bytes: [UInt8], kind: FileKind) -> [Diagnosis] {
        let context = LintContext(
            targetSdkOverride: options.targetSdk, buildValues: options.buildValues, redirectURIs: options.redirectURIs)
        return FileLinter.lint(bytes, kind: kind, context: context, limits: options.xmlLimits)
    }

    /// Lints files and folders. Throws `LintUsageError` for a path that does not exist, a file that cannot be read
    /// or whose kind cannot be told, a `--challenge` that cannot be used, and when there is nothing to check.
    public func lint(paths: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) throws(LintUsageError) -> LintReport {
        var run = Run(options: options)
        if let source = options.urlSchemes { try run.loadExplicit(source) }
        try run.loadAssociations()
        run.loadFetched()
        for path in paths { try run.add(path) }
        try run.registerQueuedAssociations()
        for (index, file) in run.queue.enumerated() {
            try run.check(file)
            progress?(index + 1, run.queue.count)
        }
        // Association files last, so that their rules see every URL the run's apps claim.
        run.lintAssociations()
        // Pointing CI at the wrong folder must not pass silently.
        guard !run.checked.isEmpty else {
            throw LintUsageError(
                "no AndroidManifest.xml, Info.plist or url_schemes.json found, nor an association file, in \(paths.joined(separator: ", "))")
        }
        var findings = run.findings
        for (file, diagnosis) in SchemeClaimedTwice.acrossApps(run.manifests) {
            guard let manifest = run.manifests.first(where: { $0.file == file })?.manifest,
                !ToolsIgnore.filter([diagnosis], root: manifest.root).isEmpty
            else { continue }
            findings.append(Finding(diagnosis, file: file))
        }
        if let config = options.config { findings = config.apply(findings) }
        var absorbed = 0
        if let baseline = options.baseline {
            (findings, absorbed) = baseline.baseline.newFindings(findings, baselinePath: baseline.path)
        }
        return LintReport(files: run.checked, findings: findings, baselined: absorbed)
    }

    /// One `lint(paths:)`: the files queued and checked, what they found, and what the cross-checks need.
    struct Run {
        let options: LintOptions
        var queue: [LintedFile] = []
        var checked: [LintedFile] = []
        var findings: [Finding] = []
        var assetLinks: [String: AssetLinksDocument] = [:]
        var appSiteAssociations: [String: AppSiteAssociationDocument] = [:]
        /// Association files read so far, linted after every other file (`lintAssociations`).
        var associationFiles: [(label: String, kind: FileKind, bytes: [UInt8], host: String?)] = []
        /// The https URLs the apps of the run receive (App Link filters, found as manifests are checked).
        var appLinkClaims: [RedirectClaim] = []
        /// Parsed manifests, for the checks across apps.
        var manifests: [(file: String, manifest: AndroidManifest)] = []
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
            case .assetLinks, .appSiteAssociation:
                break  // read by registerQueuedAssociations, linted by lintAssociations
            case .entitlements:
                let bytes = try Self.read(file.path)
                checked.append(file)
                let diagnoses = FileLinter.lint(bytes, kind: file.kind, context: baseContext, limits: options.xmlLimits)
                findings += diagnoses.map { Finding($0, file: file.path) }
            case .androidManifest, .infoPlist:
                let context = try context(for: file.path)
                let bytes = try Self.read(file.path)
                checked.append(file)
                if file.kind == .androidManifest {
                    let (diagnoses, manifest) = FileLinter.androidManifest(bytes, context: context, limits: options.xmlLimits)
                    findings += diagnoses.map { Finding($0, file: file.path) }
                    if let manifest {
                        manifests.append((file.path, manifest))
                        appLinkClaims += RedirectClaim.appLinks(of: manifest, file: file.path)
                    }
                } else {
                    let diagnoses = FileLinter.lint(bytes, kind: file.kind, context: context, limits: options.xmlLimits)
                    findings += diagnoses.map { Finding($0, file: file.path) }
                }
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

        /// What every file's rules may know, before UrlSchemes is paired with it.
        var baseContext: LintContext {
            var context = LintContext(
                targetSdkOverride: options.targetSdk, buildValues: options.buildValues,
                redirectURIs: options.redirectURIs + (options.config?.redirectURIs ?? []))
            context.assetLinks = assetLinks
            context.appSiteAssociations = appSiteAssociations
            context.signingCertificates = options.signingCertificates
            context.appID = options.appID
            return context
        }

        mutating func context(for path: String) throws(LintUsageError) -> LintContext {
            var context = baseContext
            if let explicit {
                context.urlSchemes = explicit.schemes
                context.urlSchemesSource = explicit.label
            } else if let nearest = FileDiscovery.nearestUrlSchemes(for: path) {
                context.urlSchemes = try checkUrlSchemes(path: nearest)
                context.urlSchemesSource = nearest
            }
            return context
        }

        static func read(_ path: String) throws(LintUsageError) -> [UInt8] { try LintInput.read(path) }

        static func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
    }
}
