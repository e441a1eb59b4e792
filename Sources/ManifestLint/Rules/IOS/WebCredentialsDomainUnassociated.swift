/// iOS shares credentials with, and since iOS 17.4 hands an https `ASWebAuthenticationSession` callback to, an app
/// only when the `webcredentials:` domain of its entitlements lists the app ID in `webcredentials.apps` of its
/// apple-app-site-association. Checked when association files (`--aasa`) are given.
/// https://developer.apple.com/documentation/xcode/supporting-associated-domains
public struct WebCredentialsDomainUnassociated: EntitlementsRule {
    public let descriptor = RuleDescriptor(
        id: "ios-webcredentials-domain-unassociated",
        severity: .error,
        summary: "A webcredentials: domain of the entitlements has no apple-app-site-association listing the app in webcredentials.apps.",
        hint: "Add \"webcredentials\": {\"apps\": [\"TEAMID.bundle\"]} to https://DOMAIN/.well-known/apple-app-site-association, and give it with --aasa DOMAIN=FILE.",
        reference: .appleWebAuthenticationCallback)

    public init() {}

    public func check(_ entitlements: Entitlements, context: LintContext) -> [Diagnosis] {
        // Without the app ID ios-applinks-domain-unassociated already says so once.
        guard !context.appSiteAssociations.isEmpty, let appID = entitlements.appID(context: context) else { return [] }
        return entitlements.webCredentialDomains.compactMap { domain, position in
            guard let document = context.appSiteAssociations[domain] else {
                return descriptor.finding("no apple-app-site-association was given for webcredentials:\(domain) (--aasa \(domain)=FILE)", at: position)
            }
            guard !(document.webCredentialsApps ?? []).contains(where: { $0.value == appID }) else { return nil }
            return descriptor.finding("the apple-app-site-association of \(domain) does not list \(appID) in webcredentials.apps", at: position)
        }
    }
}
