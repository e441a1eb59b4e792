import SignInProtocolCore

/// The activities of a manifest that receive sign-in: the auth activity a UrlSchemes entry names, activities with
/// a VIEW filter for a plain UrlSchemes scheme or matching a configured redirect URI, and the redirect activities
/// of well-known sign-in SDKs. Whether a filter is broken does not depend on that list: a filter a browser reaches
/// (`browserReaches`) gets the link rules' full severity whoever declared it, and the list only names the receiver
/// in messages. Elsewhere findings are info, since an app-internal deep link is not a sign-in problem.
public struct SignInReceivers: Sendable {
    public enum Reason: Sendable, Hashable {
        case urlSchemesEntry
        case urlSchemesScheme(String)
        case redirectURI(String)
        case knownSDK(String)
    }

    /// Redirect activities of sign-in SDKs, by class name, with the SDK's name.
    /// AppAuth: https://github.com/openid/AppAuth-Android#capturing-the-authorization-redirect
    /// MSAL: https://learn.microsoft.com/entra/identity-platform/tutorial-v2-android#configure-your-application
    /// Auth0: https://auth0.com/docs/libraries/auth0-android, Okta: https://github.com/okta/okta-oidc-android,
    /// Facebook Login: https://developers.facebook.com/docs/facebook-login/android,
    /// Dropbox: https://github.com/dropbox/dropbox-sdk-java#android
    public static let knownSDKActivities: [String: String] = [
        "com.dropbox.core.android.AuthActivity": "Dropbox",
        "net.openid.appauth.RedirectUriReceiverActivity": "AppAuth",
        "com.microsoft.identity.client.BrowserTabActivity": "MSAL",
        "com.auth0.android.provider.RedirectActivity": "Auth0",
        "com.okta.oidc.OktaRedirectActivity": "Okta OIDC",
        "com.facebook.CustomTabActivity": "Facebook Login",
    ]

    /// Schemes an SDK prescribes for its redirect (by prefix), which the app cannot make reverse-domain:
    /// MSAL's `msauth` and `msal<client id>`, Facebook Login's `fb<app id>`.
    public static let prescribedSchemePrefixes: [String: [String]] = [
        "MSAL": ["msauth", "msal"],
        "Facebook Login": ["fb"],
    ]

    /// Whether `scheme` is one the component's SDK prescribes.
    public func schemeIsPrescribed(_ scheme: String, for component: AndroidComponent) -> Bool {
        guard case .knownSDK(let sdk) = reason(for: component) else { return false }
        return Self.prescribedSchemePrefixes[sdk]?.contains { scheme.asciiLowercased().hasPrefix($0) } == true
    }

    /// Reasons by the component's element position (unique per component).
    public private(set) var reasons: [SourcePosition: Reason] = [:]

    public init(manifest: AndroidManifest, context: LintContext) {
        for entry in manifest.appEntries(in: context.urlSchemes) {
            if let component = manifest.component(for: entry) { reasons[component.element.position] = .urlSchemesEntry }
        }
        let plainSchemes = (context.urlSchemes?.android ?? []).compactMap { entry -> String? in
            if case .scheme(let scheme) = entry { return scheme.asciiLowercased() }
            return nil
        }
        let redirects = context.redirectURIs.compactMap(RedirectURI.init)
        for component in manifest.components where component.kind == .activity || component.kind == .activityAlias {
            let position = component.element.position
            guard reasons[position] == nil else { continue }
            if let name = component.qualifiedName(package: manifest.packageName), let sdk = Self.knownSDKActivities[name] {
                reasons[position] = .knownSDK(sdk)
                continue
            }
            for filter in component.intentFilters where filter.isView {
                if let redirect = redirects.first(where: { $0.matches(filter) }) {
                    reasons[position] = .redirectURI(redirect.text)
                    break
                }
                if let scheme = filter.schemes.first(where: { plainSchemes.contains($0.value.asciiLowercased()) }) {
                    reasons[position] = .urlSchemesScheme(scheme.value)
                    break
                }
            }
        }
    }

    /// The receivers FileLinter found once for this manifest and context before running its rules, or else found now.
    /// Six rules ask, and finding them costs 2.4 M instructions on the 5,000-line benchmark manifest (callgrind).
    public static func of(_ manifest: AndroidManifest, context: LintContext) -> SignInReceivers {
        context.signInReceivers ?? SignInReceivers(manifest: manifest, context: context)
    }

    public func reason(for component: AndroidComponent) -> Reason? { reasons[component.element.position] }

    /// A browser opens a link in an app only through a VIEW filter with category BROWSABLE of an activity it may
    /// start (not `android:exported="false"`), so such a filter receives redirects whatever its class name.
    /// https://developer.android.com/training/app-links/deep-linking#adding-filters
    public static func browserReaches(_ filter: IntentFilter, of component: AndroidComponent) -> Bool {
        (component.kind == .activity || component.kind == .activityAlias) && component.exported?.value != "false"
            && filter.isView && filter.categories.contains { $0.value == IntentFilter.browsableCategory }
    }

    /// `severity` for a filter a browser reaches or one of a sign-in receiver, info for any other filter.
    public func severity(_ severity: Severity, for component: AndroidComponent, filter: IntentFilter) -> Severity {
        reason(for: component) == nil && !Self.browserReaches(filter, of: component) ? .info : severity
    }

    /// Names the SDK whose receiver it is, or says why a finding was downgraded to info.
    public func note(for component: AndroidComponent, filter: IntentFilter) -> String {
        if case .knownSDK(let sdk) = reason(for: component) { return " (\(sdk)'s sign-in receiver)" }
        if reason(for: component) != nil || Self.browserReaches(filter, of: component) { return "" }
        return " (no browser reaches this filter and it is not a sign-in receiver, so info only)"
    }

    /// The rule's finding about a filter, with the severity and the note above.
    public func finding(
        _ rule: RuleDescriptor, _ message: String, at position: SourcePosition, of component: AndroidComponent, filter: IntentFilter
    ) -> Diagnosis {
        rule.finding(
            message + note(for: component, filter: filter), at: position,
            severity: severity(rule.severity, for: component, filter: filter))
    }

    /// One finding for each `<data>` attribute of every intent filter that `problem` objects to, at the attribute's
    /// value: the rules that judge one attribute at a time (scheme syntax, host wildcard, path slash).
    public func attributeFindings(
        _ rule: RuleDescriptor, in manifest: AndroidManifest, attributes: (IntentFilter) -> [XMLAttribute],
        problem: (XMLAttribute) -> String?
    ) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        for component in manifest.components {
            for filter in component.intentFilters {
                for attribute in attributes(filter) {
                    guard let message = problem(attribute) else { continue }
                    diagnoses.append(finding(rule, message, at: attribute.valuePosition, of: component, filter: filter))
                }
            }
        }
        return diagnoses
    }

    /// `severity` for a sign-in receiver, info for any other component.
    public func severity(_ severity: Severity, for component: AndroidComponent) -> Severity {
        reason(for: component) == nil ? .info : severity
    }

    /// " (not a sign-in receiver)" for findings downgraded to info, so that the reader knows why.
    public func note(for component: AndroidComponent) -> String {
        reason(for: component) == nil ? " (not a sign-in receiver, so info only)" : ""
    }
}
