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
        SignInReceivers.of(manifest, context: context).attributeFindings(
            descriptor, in: manifest, attributes: { filter in Self.attributes.flatMap { filter.dataAttributes($0) } }
        ) { attribute in
            guard !attribute.value.hasPrefix("/"), !BuildTimeValue.isPlaceholder(attribute.value) else { return nil }
            return "\(attribute.qualifiedName) \"\(attribute.value)\" does not start with '/'"
        }
    }
}
