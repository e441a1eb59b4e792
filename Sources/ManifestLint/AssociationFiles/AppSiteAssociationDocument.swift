/// An `apple-app-site-association` file with positions: the `applinks` section iOS reads for Universal Links.
/// https://developer.apple.com/documentation/xcode/supporting-associated-domains
/// https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary
public struct AppSiteAssociationDocument: Sendable {
    public struct Detail: Sendable {
        public var node: JSONNode
        /// `appIDs` items, or the legacy `appID` string, with positions.
        public var appIDs: [(value: String, position: SourcePosition)]
        /// `components` objects in order (iOS 13+).
        public var components: [JSONNode]
        /// Legacy `paths` strings (before iOS 13), with `NOT ` meaning exclude.
        public var paths: [(value: String, position: SourcePosition)]
    }

    public var root: JSONNode
    public var details: [Detail]

    /// Apple: "The uncompressed file size must be no greater than 128 KB."
    public static let maxBytes = 128 * 1024

    public init(root: JSONNode) {
        self.root = root
        let detailNodes = root.member("applinks")?.value.member("details")?.value.items ?? []
        details = detailNodes.filter { $0.members != nil }.map { node in
            var appIDs = (node.member("appIDs")?.value.items ?? []).compactMap { item in item.string.map { ($0, item.position) } }
            if let legacy = node.member("appID")?.value, let text = legacy.string { appIDs.append((text, legacy.position)) }
            return Detail(
                node: node, appIDs: appIDs,
                components: (node.member("components")?.value.items ?? []).filter { $0.members != nil },
                paths: (node.member("paths")?.value.items ?? []).compactMap { item in item.string.map { ($0, item.position) } })
        }
    }

    /// The details naming this app ID (`TEAMID.bundle`).
    public func details(for appID: String) -> [Detail] {
        details.filter { $0.appIDs.contains { $0.value == appID } }
    }

    /// The details of the app being checked (`--app-id` or the run's entitlements), or every detail when the
    /// app is not known.
    func details(forAppOf context: LintContext) -> [Detail] {
        context.appID.map { details(for: $0) } ?? details
    }

    /// `webcredentials.apps`: the app IDs that may use the domain's credentials, with positions; nil when the
    /// file has no `webcredentials` section.
    /// https://developer.apple.com/documentation/xcode/supporting-associated-domains
    public var webCredentialsApps: [(value: String, position: SourcePosition)]? {
        guard let apps = root.member("webcredentials")?.value.member("apps")?.value else { return nil }
        return (apps.items ?? []).compactMap { item in item.string.map { ($0, item.position) } }
    }

    /// `ABCDE12345.com.contoso.files`: a ten-character team ID of upper-case letters and digits, a dot, a bundle ID.
    public static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty else { return false }
        return parts[0].unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && parts[1].unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    }
}

extension AppSiteAssociationDocument.Detail {
    /// What the detail decides for a URL: iOS takes the first component that matches, and an `exclude` one means
    /// the app does not open it; legacy `paths` (with `NOT `) count only in a detail without `components`. nil
    /// when nothing matches. Returns the deciding node's position and whether it excludes.
    func decision(for url: RedirectURI) -> (position: SourcePosition, excluded: Bool)? {
        if !components.isEmpty {
            let pattern = components.lazy.map(URLComponentPattern.init).first { $0.matches(url) }
            return pattern.map { ($0.node.position, $0.excludes) }
        }
        let path = url.path.isEmpty ? "/" : url.path
        for (value, position) in paths {
            let excluded = value.hasPrefix("NOT ")
            if AppLinkPattern.matches(excluded ? String(value.dropFirst(4)) : value, path) { return (position, excluded) }
        }
        return nil
    }
}

/// Apple's Universal Links path patterns: `*` matches any run of characters (also none), `?` one character.
enum AppLinkPattern {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern)
        let t = Array(text)
        var pi = 0
        var ti = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
