/// iOS opens a Universal Link in the app only when the `applinks:` domain of the entitlements serves an
/// apple-app-site-association naming the app ID (`TEAMID.bundle`). Checked when association files (`--aasa`) are
/// given. https://developer.apple.com/documentation/xcode/supporting-associated-domains
public struct AppLinksDomainUnassociated: EntitlementsRule {
    public let descriptor = RuleDescriptor(
        id: "ios-applinks-domain-unassociated",
        severity: .error,
        summary: "An applinks: domain of the entitlements has no apple-app-site-association naming the app.",
        hint: "Serve https://DOMAIN/.well-known/apple-app-site-association with the app ID in applinks.details, and give it with --aasa DOMAIN=FILE.",
        reference: .appleAssociatedDomains)

    public init() {}

    public func check(_ entitlements: Entitlements, context: LintContext) -> [Diagnosis] {
        guard !context.appSiteAssociations.isEmpty else { return [] }
        guard let appID = entitlements.appID(context: context) else {
            return [
                descriptor.finding(
                    "the app ID is a build setting or missing, so applinks: domains could not be checked (give --app-id TEAMID.bundle or --build-setting)",
                    at: entitlements.plist.headPosition, severity: .info)
            ]
        }
        return entitlements.appLinkDomains.compactMap { domain, position in
            let name = domain.hasPrefix("*.") ? String(domain.dropFirst(2)) : domain
            guard let document = context.appSiteAssociations[name] else {
                return descriptor.finding("no apple-app-site-association was given for applinks:\(domain) (--aasa \(name)=FILE)", at: position)
            }
            guard document.details(for: appID).isEmpty else { return nil }
            return descriptor.finding("the apple-app-site-association of \(name) does not name \(appID) in applinks.details", at: position)
        }
    }
}
