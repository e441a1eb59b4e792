import SignInProtocolCore

/// RFC 8252 §7.1: an OAuth redirect's private-use scheme should be a reverse domain name the app's owner controls
/// (`com.contoso.files`), so that two apps do not claim the same scheme by accident. The RFC speaks of redirect
/// schemes only, so schemes of activities that receive no sign-in (`otpauth`, `mail`) are info at most, and a
/// scheme the receiver's SDK prescribes (MSAL's `msal<client id>`) is not the app's choice to make.
public struct SchemeNotReverseDomain: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-scheme-not-reverse-domain",
        severity: .warning,
        summary: "A sign-in receiver's private-use URI scheme is not a reverse domain name (RFC 8252 §7.1).",
        hint: "Use a scheme based on a domain you own, reversed: com.contoso.files.",
        reference: .rfc8252PrivateUse)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let receivers = SignInReceivers.of(manifest, context: context)
        return manifest.components.flatMap { component in
            component.intentFilters.filter(\.isView).flatMap(\.schemes).compactMap { scheme -> Diagnosis? in
                let value = scheme.value
                guard URIComponents.isValidScheme(value), !URISchemeSyntax.publicSchemes.contains(value.asciiLowercased()),
                    !URISchemeSyntax.isReverseDomain(value), !receivers.schemeIsPrescribed(value, for: component)
                else { return nil }
                return descriptor.finding(
                    "private-use scheme \"\(value)\" is not a reverse domain name" + receivers.note(for: component),
                    at: scheme.valuePosition, severity: receivers.severity(descriptor.severity, for: component))
            }
        }
    }
}
