import SignInProtocolCore

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
                var hostsAndPaths: (hosts: [String], paths: [String])?
                for scheme in filter.schemes {
                    let key = scheme.value.asciiLowercased()
                    guard !key.isEmpty, !URISchemeSyntax.publicSchemes.contains(key), !BuildTimeValue.isPlaceholder(key)
                    else { continue }
                    let (hosts, paths) = hostsAndPaths ?? Self.hostsAndPaths(filter)
                    hostsAndPaths = (hosts, paths)
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

    /// The filter's hosts (lowercased) and paths, the paths by kind in `PathKind` order and then in document order,
    /// kinds other than `path` named (`/items (pathPrefix)`). One pass over the `<data>` elements' attributes
    /// rather than one per kind: on the 5,000-line benchmark manifest this was a tenth of the rule's cost.
    static func hostsAndPaths(_ filter: IntentFilter) -> (hosts: [String], paths: [String]) {
        var hosts = [String]()
        var pathsByKind = [[String]](repeating: [], count: RedirectURI.PathKind.allCases.count)
        for data in filter.data {
            // A name appears once per element (XML allows no repeated attribute), as `attribute(_:namespace:)` finds it.
            for attribute in data.attributes where attribute.namespaceURI == AndroidNamespace.uri {
                if attribute.name == "host" {
                    hosts.append(attribute.value.asciiLowercased())
                } else if let kind = RedirectURI.PathKind(rawValue: attribute.name),
                    let index = RedirectURI.PathKind.allCases.firstIndex(of: kind)
                {
                    pathsByKind[index].append(kind == .path ? attribute.value : "\(attribute.value) (\(kind.rawValue))")
                }
            }
        }
        return (hosts, Array(pathsByKind.joined()))
    }
}
