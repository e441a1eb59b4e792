/// One custom-scheme link a VIEW filter claims: scheme, host and path as Android combines a filter's `<data>`
/// elements (every scheme with every host with every path). An empty host or path means "any".
/// https://developer.android.com/guide/topics/manifest/data-element
public struct LinkClaim: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var path: String

    public var description: String {
        "\(scheme):" + (host.isEmpty ? "" : "//\(host)") + path
    }

    /// A claim with the component that makes it and the `android:scheme` attribute findings point at.
    public struct Owner: Sendable {
        public var claim: LinkClaim
        public var component: AndroidComponent
        public var scheme: XMLAttribute
    }

    /// Every custom-scheme claim of the manifest's activities, in document order; http(s) and other public schemes
    /// (App Links have rules of their own) and unresolved placeholders are left out.
    public static func claims(of manifest: AndroidManifest) -> [Owner] {
        var owners = [Owner]()
        for component in manifest.components where component.kind == .activity || component.kind == .activityAlias {
            for filter in component.intentFilters where filter.isView {
                let hosts = filter.dataAttributes("host").map { $0.value.asciiLowercasedForMatching }
                let paths = RedirectURI.PathKind.allCases.flatMap { kind in
                    filter.dataAttributes(kind.rawValue).map { kind == .path ? $0.value : "\($0.value) (\(kind.rawValue))" }
                }
                for scheme in filter.schemes {
                    let key = scheme.value.asciiLowercasedForMatching
                    guard !key.isEmpty, !URISchemeSyntax.publicSchemes.contains(key), !BuildTimeValue.isPlaceholder(key)
                    else { continue }
                    for host in hosts.isEmpty ? [""] : hosts {
                        for path in paths.isEmpty || host.isEmpty ? [""] : paths {
                            owners.append(Owner(claim: LinkClaim(scheme: key, host: host, path: path), component: component, scheme: scheme))
                        }
                    }
                }
            }
        }
        return owners
    }
}
