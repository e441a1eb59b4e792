/// `android:host` may start with `*` to match subdomains (`*.contoso.com`); a `*` anywhere else is a literal
/// character and the filter never matches. An error on a filter a browser reaches or of a sign-in receiver, info
/// elsewhere.
public struct HostWildcard: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-host-wildcard",
        severity: .error,
        summary: "A <data android:host> has a '*' wildcard that is not at the start.",
        hint: "Use the wildcard only as the first label: android:host=\"*.contoso.com\".",
        reference: .androidDataElement)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        SignInReceivers.of(manifest, context: context).attributeFindings(
            descriptor, in: manifest, attributes: { $0.dataAttributes("host") }
        ) { host in
            let value = host.value
            guard value.containsASCII("*"), !BuildTimeValue.isPlaceholder(value) else { return nil }
            let rest = value.dropFirst()
            let leadingWildcardOnly = value.first == "*" && !rest.containsASCII("*") && (rest.isEmpty || rest.first == ".")
            return leadingWildcardOnly ? nil : "android:host \"\(value)\" has a '*' that is not a leading \"*.\" wildcard"
        }
    }
}
