import SignInProtocolCore

/// An Xcode `.entitlements` property list: the associated domains and app identifier Universal Links need.
/// https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.associated-domains
public struct Entitlements: Sendable {
    public var plist: InfoPlist

    public static let associatedDomainsKey = "com.apple.developer.associated-domains"
    public static let applicationIdentifierKey = "application-identifier"

    public init(plist: InfoPlist) { self.plist = plist }

    /// The `applinks:` entries: the domain (without `?mode=…` and without the service), with its position.
    public var appLinkDomains: [(domain: String, position: SourcePosition)] { domains(of: "applinks") }

    /// The `webcredentials:` entries (shared credentials, and since iOS 17.4 https sign-in callbacks).
    public var webCredentialDomains: [(domain: String, position: SourcePosition)] { domains(of: "webcredentials") }

    private func domains(of service: String) -> [(domain: String, position: SourcePosition)] {
        (plist.entry(Self.associatedDomainsKey)?.value?.array ?? []).compactMap { node in
            guard let text = node.string, text.hasPrefix(service + ":") else { return nil }
            let rest = text.dropFirst(service.count + 1)
            return (String(rest.prefix { $0 != "?" }).asciiLowercased(), node.position)
        }
    }

    /// The app ID: `application-identifier` unless it is a build setting left unresolved, else `--app-id`.
    func appID(context: LintContext) -> String? {
        applicationIdentifier.flatMap { BuildTimeValue.isPlaceholder($0) ? nil : $0 } ?? context.appID
    }

    /// `application-identifier` (usually `$(AppIdentifierPrefix)$(CFBundleIdentifier)`), after build settings.
    public var applicationIdentifier: String? { plist.entry(Self.applicationIdentifierKey)?.value?.string }
}
