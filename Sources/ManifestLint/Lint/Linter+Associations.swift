import Foundation
import SignInProtocolCore

/// The association files of a run (`--assetlinks`, `--aasa`, `--fetch` and those found in the folders): read first,
/// so that the manifests' and entitlements' rules can compare with them, and linted last, against every https URL
/// the run claims (docs/lint-app-links.md).
extension Linter.Run {
    /// The redirect URIs given as options, as claims with their origin.
    var optionClaims: [RedirectClaim] {
        options.redirectURIs.compactMap { RedirectClaim($0, origin: "--redirect-uri", isSignInCallback: true) }
            + (options.config?.redirectURIs ?? []).compactMap {
                RedirectClaim($0, origin: "the lint configuration's redirect-uris", isSignInCallback: true)
            }
    }

    /// Keeps an association file's bytes to lint it last and, when it `standsForHost` (an option or `--fetch`
    /// said whose it is), reads it for the manifests' and entitlements' cross-checks (the first for a host wins).
    mutating func register(_ bytes: [UInt8], kind: FileKind, label: String, host: String?, standsForHost: Bool = true) {
        associationFiles.append((label, kind, bytes, host))
        guard let host, standsForHost else { return }
        if kind == .assetLinks, assetLinks[host] == nil,
            let root = try? AssociationJSON.parse(bytes, limit: AssetLinksDocument.maxBytes, name: kind.rawValue)
        {
            assetLinks[host] = AssetLinksDocument(root: root)
        } else if kind == .appSiteAssociation, appSiteAssociations[host] == nil,
            let root = try? AssociationJSON.parse(bytes, limit: AppSiteAssociationDocument.maxBytes, name: kind.rawValue)
        {
            appSiteAssociations[host] = AppSiteAssociationDocument(root: root)
        }
    }

    /// Association files found under the given folders: `HOST/.well-known/NAME` or `HOST/NAME` (HOST with a
    /// dot) says the host; elsewhere (an app's own folder) the file answers for what the files beside and
    /// below it claim, whatever the host. A found file does not stand for its host in the manifests' and
    /// entitlements' checks (a tree may hold several mirrors of one host); `--assetlinks`/`--aasa` say which does.
    mutating func registerQueuedAssociations() throws(LintUsageError) {
        for file in queue where file.kind == .assetLinks || file.kind == .appSiteAssociation {
            let host = Self.servingHost(of: file.path)
            register(try Self.read(file.path), kind: file.kind, label: file.path, host: host, standsForHost: false)
            checked.append(file)
        }
    }

    static func servingHost(of path: String) -> String? {
        var folders = path.split(separator: "/").dropLast()
        if folders.last == Substring(FileDiscovery.wellKnown) { folders = folders.dropLast() }
        guard let host = folders.last, host.contains("."), !host.hasPrefix(".") else { return nil }
        return String(host).asciiLowercased()
    }

    /// Lints every association file of the run, each with the claims it answers for.
    mutating func lintAssociations() {
        var context = baseContext
        let all = optionClaims + appLinkClaims
        for file in associationFiles {
            context.associationHost = file.host
            if file.host == nil {
                let folder = (file.label as NSString).deletingLastPathComponent + "/"
                context.redirectClaims = appLinkClaims.filter { $0.file?.hasPrefix(folder) == true }
            } else {
                context.redirectClaims = all
            }
            let diagnoses =
                file.kind == .assetLinks
                ? FileLinter.assetLinks(file.bytes, context: context).diagnoses
                : FileLinter.appSiteAssociation(file.bytes, context: context).diagnoses
            findings += diagnoses.map { Finding($0, file: file.label) }
        }
    }

    /// Lints the association files of `--assetlinks` and `--aasa` and keeps them by host for the cross-checks.
    mutating func loadAssociations() throws(LintUsageError) {
        for argument in options.assetLinks {
            for (host, path) in try AssociationSources.resolve(argument, fileName: FileKind.assetLinks.rawValue, option: "--assetlinks") {
                guard queued.insert(Self.canonical(path)).inserted else { continue }
                register(try Self.read(path), kind: .assetLinks, label: path, host: host)
                checked.append(LintedFile(path: path, kind: .assetLinks))
            }
        }
        for argument in options.appSiteAssociations {
            let name = FileKind.appSiteAssociation.rawValue
            for (host, path) in try AssociationSources.resolve(argument, fileName: name, option: "--aasa") {
                guard queued.insert(Self.canonical(path)).inserted else { continue }
                register(try Self.read(path), kind: .appSiteAssociation, label: path, host: host)
                checked.append(LintedFile(path: path, kind: .appSiteAssociation))
            }
        }
    }

    /// Checks how each `--fetch` answer was served and, for a 200, the file itself, kept by host like the others.
    mutating func loadFetched() {
        for response in options.fetched {
            checked.append(LintedFile(path: response.url, kind: response.kind))
            let served = RuleCatalog.wellKnownResponse.flatMap { $0.check(response, context: baseContext) }
            findings += served.map { Finding($0, file: response.url) }
            guard let body = response.servedBody else { continue }
            register(body, kind: response.kind, label: response.url, host: response.host)
        }
    }
}

extension Linter {
    /// Lints one association file that `host` serves against these claims, as a run does (`signin-bridge config
    /// check` for the files the server publishes).
    public func lintAssociation(_ bytes: [UInt8], kind: FileKind, host: String, claims: [RedirectClaim]) -> [Diagnosis] {
        var context = LintContext(targetSdkOverride: options.targetSdk, buildValues: options.buildValues)
        context.redirectClaims = claims
        context.associationHost = host.asciiLowercased()
        return FileLinter.lint(bytes, kind: kind, context: context, limits: options.xmlLimits)
    }
}
