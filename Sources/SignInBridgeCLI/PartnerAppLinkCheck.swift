import BridgeServer
import Foundation
import ManifestLint

/// `config check` for `partnerApps`: the association files `serve` publishes, linted as the platforms read them
/// (signin-bridge lint's rules), against the partner apps' redirect paths on this host and every public client's
/// https redirect URI on this host, each a sign-in callback the files must let the app receive.
enum PartnerAppLinkCheck {
    /// `path: severity: [rule] message` lines, and whether any is an error.
    static func run(_ configuration: BridgeConfiguration) -> (lines: [String], failed: Bool) {
        let apps = configuration.partnerApps ?? []
        guard !apps.isEmpty, let host = URL(string: configuration.issuer)?.host?.lowercased() else { return ([], false) }
        let claims = callbacks(configuration, host: host)
        let files: [(path: String, kind: FileKind, bytes: [UInt8]?)] = [
            (PartnerAppAssociations.appleAppSiteAssociationPath, .appSiteAssociation, PartnerAppAssociations.appleAppSiteAssociation(apps)),
            (PartnerAppAssociations.assetLinksPath, .assetLinks, PartnerAppAssociations.assetLinks(apps)),
        ]
        var lines = [String]()
        var failed = false
        for file in files {
            guard let bytes = file.bytes else { continue }
            for diagnosis in Linter().lintAssociation(bytes, kind: file.kind, host: host, claims: claims) {
                failed = failed || diagnosis.severity == .error
                lines.append("partnerApps: \(file.path):\(diagnosis.position): \(diagnosis.severity.rawValue): [\(diagnosis.rule.id)] \(diagnosis.message)")
            }
        }
        return (lines, failed)
    }

    /// The partner apps' paths on this host, and the public clients' https redirect URIs whose host is this one.
    static func callbacks(_ configuration: BridgeConfiguration, host: String) -> [RedirectClaim] {
        var claims = [RedirectClaim]()
        for (index, app) in (configuration.partnerApps ?? []).enumerated() {
            for (pathIndex, path) in app.redirectPaths.enumerated() {
                let origin = "partnerApps[\(index)].redirectPaths[\(pathIndex)]"
                if let claim = RedirectClaim("https://\(host)\(path)", origin: origin, isSignInCallback: true) { claims.append(claim) }
            }
        }
        for (index, client) in configuration.clients.enumerated() where client.public {
            for (uriIndex, uri) in client.redirectUris.enumerated() {
                guard let claim = RedirectClaim(uri, origin: "clients[\(index)].redirectUris[\(uriIndex)]", isSignInCallback: true),
                    URL(string: uri)?.host?.lowercased() == host
                else { continue }
                claims.append(claim)
            }
        }
        return claims
    }
}
