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
        let receivers = SignInReceivers.of(manifest, context: context)
        var diagnoses = [Diagnosis]()
        for component in manifest.components {
            for filter in component.intentFilters {
                for host in filter.dataAttributes("host") {
                    let value = host.value
                    guard value.containsASCII("*"), !BuildTimeValue.isPlaceholder(value) else { continue }
                    let rest = value.dropFirst()
                    let leadingWildcardOnly = value.first == "*" && !rest.containsASCII("*") && (rest.isEmpty || rest.first == ".")
                    guard !leadingWildcardOnly else { continue }
                    let message = "android:host \"\(value)\" has a '*' that is not a leading \"*.\" wildcard"
                    diagnoses.append(receivers.finding(descriptor, message, at: host.valuePosition, of: component, filter: filter))
                }
            }
        }
        return diagnoses
    }
}
