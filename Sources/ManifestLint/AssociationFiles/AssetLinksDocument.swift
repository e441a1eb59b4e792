/// A Digital Asset Links statement list (`/.well-known/assetlinks.json`) with positions: what Android reads to
/// verify App Links. https://developer.android.com/training/app-links/configure-assetlinks
public struct AssetLinksDocument: Sendable {
    public struct Statement: Sendable {
        public var node: JSONNode
        public var relations: [String]
        public var namespace: String?
        public var packageName: String?
        /// `sha256_cert_fingerprints` strings with their positions.
        public var fingerprints: [(value: String, position: SourcePosition)]
        /// Android 15's dynamic rules for handle_all_urls (`relation_extensions`), in order.
        public var dynamicComponents: [JSONNode]
    }

    public var root: JSONNode
    public var statements: [Statement]

    /// Google gives no limit; 1 MiB is far above any real file and bounds what a hostile one costs.
    public static let maxBytes = 1024 * 1024
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// What Credential Manager asks of the identity provider's domain to share sign-in credentials with the app.
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"
    public static let androidApp = "android_app"

    public init(root: JSONNode) {
        self.root = root
        statements = (root.items ?? []).filter { $0.members != nil }.map { node in
            let target = node.member("target")?.value
            return Statement(
                node: node,
                relations: (node.member("relation")?.value.items ?? []).compactMap(\.string),
                namespace: target?.member("namespace")?.value.string,
                packageName: target?.member("package_name")?.value.string,
                fingerprints: (target?.member("sha256_cert_fingerprints")?.value.items ?? []).compactMap { item in
                    item.string.map { ($0, item.position) }
                },
                dynamicComponents: (node.member("relation_extensions")?.value.member(Self.handleAllURLs)?.value
                    .member("dynamic_app_link_components")?.value.items ?? []).filter { $0.members != nil })
        }
    }

    /// Statements that let the app with this package handle all URLs of the host (what App Links verification needs).
    public func verifies(package: String) -> [Statement] {
        statements.filter {
            $0.namespace == Self.androidApp && $0.packageName == package && $0.relations.contains(Self.handleAllURLs)
        }
    }

    /// `AA:BB:…`: 32 bytes, upper-case hex, colon-separated, as Android's verifier compares them.
    public static func isFingerprint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 32 && parts.allSatisfy { part in
            part.count == 2 && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        }
    }
}
