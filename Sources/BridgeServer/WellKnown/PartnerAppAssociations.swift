import BridgeHTTP
import Hummingbird
import SignInProtocol

/// The association files this host publishes for its partner apps, built from `partnerApps` once at start.
/// apple-app-site-association: https://developer.apple.com/documentation/xcode/supporting-associated-domains
/// assetlinks.json: https://developer.android.com/training/app-links/configure-assetlinks
public enum PartnerAppAssociations {
    public static let appleAppSiteAssociationPath = "/.well-known/apple-app-site-association"
    public static let assetLinksPath = "/.well-known/assetlinks.json"

    /// Each iOS app may open the redirect paths (`applinks`) and, for https `ASWebAuthenticationSession` callbacks
    /// (iOS 17.4+), use the domain's credentials (`webcredentials`); nil when no partner app is an iOS app.
    public static func appleAppSiteAssociation(_ apps: [BridgeConfiguration.PartnerApp]) -> [UInt8]? {
        let details = apps.compactMap { app in
            app.ios.map { ios in
                AASA.Detail(appIDs: ios.appIDs, components: app.redirectPaths.map { AASA.Component(path: $0) })
            }
        }
        guard !details.isEmpty else { return nil }
        let document = AASA(
            applinks: AASA.AppLinks(details: details),
            webcredentials: AASA.WebCredentials(apps: details.flatMap(\.appIDs)))
        return JSONBody.bytes(document)
    }

    /// One statement per Android app granting `handle_all_urls` (App Links) and `get_login_creds` (Credential
    /// Manager's credential sharing with the identity provider's domain); nil when no partner app is an Android app.
    public static func assetLinks(_ apps: [BridgeConfiguration.PartnerApp]) -> [UInt8]? {
        let statements = apps.compactMap { app in
            app.android.map { android in
                AssetLinksStatement(
                    relation: [
                        "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
                    ],
                    target: .init(package_name: android.packageName, sha256_cert_fingerprints: android.sha256Fingerprints))
            }
        }
        return statements.isEmpty ? nil : JSONBody.bytes(statements)
    }

    struct AASA: Encodable {
        var applinks: AppLinks
        var webcredentials: WebCredentials

        struct AppLinks: Encodable { var details: [Detail] }
        struct Detail: Encodable {
            var appIDs: [String]
            var components: [Component]
        }
        struct Component: Encodable {
            var path: String
            enum CodingKeys: String, CodingKey { case path = "/" }
        }
        struct WebCredentials: Encodable { var apps: [String] }
    }

    struct AssetLinksStatement: Encodable {
        var relation: [String]
        var target: Target

        struct Target: Encodable {
            var namespace = "android_app"
            var package_name: String
            var sha256_cert_fingerprints: [String]
        }
    }
}

extension BridgeRoutes {
    /// Served as the platforms fetch them: 200 with `application/json`, no redirect; absent (404) without apps.
    func registerPartnerAppAssociations(on router: Router<BridgeRequestContext>) {
        let apps = configuration.partnerApps ?? []
        if let document = PartnerAppAssociations.appleAppSiteAssociation(apps) {
            router.get(RouterPath(PartnerAppAssociations.appleAppSiteAssociationPath)) { _, _ in Self.json(document, cacheable: true) }
        }
        if let document = PartnerAppAssociations.assetLinks(apps) {
            router.get(RouterPath(PartnerAppAssociations.assetLinksPath)) { _, _ in Self.json(document, cacheable: true) }
        }
    }
}
