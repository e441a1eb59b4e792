import SignInProtocolCore

/// One entry of an apple-app-site-association detail's `components`, or of an assetlinks.json statement's
/// `dynamic_app_link_components` (Android 15 reads the same keys): patterns for the path (`/`), the query (`?`,
/// a string for the whole query or an object of query item patterns) and the fragment (`#`), `exclude`, and on
/// iOS `caseSensitive` and `percentEncoded`. A missing pattern matches anything.
/// https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary
/// https://developer.android.com/training/app-links/configure-assetlinks
struct URLComponentPattern {
    var node: JSONNode

    var excludes: Bool { flag("exclude") ?? false }

    /// Whether this entry matches the URL's path, query and fragment, as the platform compares them.
    func matches(_ url: RedirectURI) -> Bool {
        let caseSensitive = flag("caseSensitive") ?? true
        let percentEncoded = flag("percentEncoded") ?? true
        func fits(_ pattern: String, _ text: String) -> Bool {
            let value = percentEncoded ? text : ((try? PercentEncoding.decode(text)) ?? text)
            return caseSensitive
                ? AppLinkPattern.matches(pattern, value)
                : AppLinkPattern.matches(pattern.lowercased(), value.lowercased())
        }
        if let path = node.member("/")?.value.string, !fits(path, url.path.isEmpty ? "/" : url.path) { return false }
        if let fragment = node.member("#")?.value.string, !fits(fragment, url.fragment ?? "") { return false }
        guard let query = node.member("?")?.value else { return true }
        if let whole = query.string { return fits(whole, url.query ?? "") }
        let items = Self.queryItems(url.query ?? "")
        return (query.members ?? []).allSatisfy { member in
            guard let pattern = member.value.string else { return true }
            return items.contains { $0.name == member.key && fits(pattern, $0.value) }
        }
    }

    private func flag(_ key: String) -> Bool? {
        if case .boolean(let value) = node.member(key)?.value.value { return value }
        return nil
    }

    /// `a=1&b=2` → (a, 1), (b, 2); an item without `=` has an empty value (WHATWG URL's query parsing).
    static func queryItems(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
