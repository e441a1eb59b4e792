/// Android compares `android:path` and `android:pathPrefix` with the URI's path, which always starts with `/`
/// when there is a host; without the slash the filter never matches. An error on a filter a browser reaches or of
/// a sign-in receiver, info elsewhere.
public struct PathWithoutSlash: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-path-without-slash",
        severity: .error,
        summary: "A <data android:path> or android:pathPrefix does not start with '/'.",
        hint: "Start the path with '/': android:pathPrefix=\"/signin\".",
        reference: .androidDataElement)

    public init() {}

    static let attributes = ["path", "pathPrefix"]

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let receivers = SignInReceivers.of(manifest, context: context)
        var diagnoses = [Diagnosis]()
        for component in manifest.components {
            for filter in component.intentFilters {
                for attribute in Self.attributes.flatMap({ filter.dataAttributes($0) }) {
                    guard !attribute.value.hasPrefix("/"), !BuildTimeValue.isPlaceholder(attribute.value) else { continue }
                    let message = "\(attribute.qualifiedName) \"\(attribute.value)\" does not start with '/'"
                    diagnoses.append(receivers.finding(descriptor, message, at: attribute.valuePosition, of: component, filter: filter))
                }
            }
        }
        return diagnoses
    }
}
