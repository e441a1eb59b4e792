import BridgeHTTP
import Foundation

/// Where the token endpoint answers. Always `/oauth2/token` on the issuer (what the metadata announces), plus the
/// path of every other token URL this server hands out on its own origin: `office.tokenIssuanceUri` (the bootstrap
/// challenge's `tokenIssuance_uri`) and each client's `tokenEndpointOverride` (sent as `tk` in the final redirect,
/// which Office then uses for code exchange and refresh, Microsoft's Office app-to-app docs). They are the same handler, so a `tk`
/// URL can never lead to a different rule set. A URL on another origin belongs to a front door (a proxy) that must
/// forward it here; it is listed in `foreignURLs` so that start-up can say so.
struct TokenEndpointPaths: Equatable {
    static let canonical = "/oauth2/token"

    /// `canonical` first, then the extra paths in configuration order, without duplicates.
    let paths: [String]
    let foreignURLs: [String]

    init(configuration: BridgeConfiguration) {
        var paths = [Self.canonical]
        var foreign = [String]()
        let origin = WebOrigin(url: configuration.issuer)
        let candidates = [configuration.office.tokenIssuanceUri] + configuration.clients.map(\.tokenEndpointOverride)
        for url in candidates.compactMap({ $0 }) {
            guard let components = URLComponents(string: url), let origin, WebOrigin(components) == origin else {
                foreign.append(url)
                continue
            }
            // The query (Office's example `tk` carries `?extra=stuff`) plays no part in routing.
            let path = components.path.isEmpty ? "/" : components.path
            if !paths.contains(path) { paths.append(path) }
        }
        self.paths = paths
        self.foreignURLs = foreign
    }
}
