/// Android matches `android:scheme` case-sensitively against the lower-cased scheme of the intent's URI, so an
/// upper-case, empty or `:`-terminated scheme never matches anything.
public struct DataSchemeSyntax: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-scheme-syntax",
        severity: .error,
        summary: "A <data android:scheme> is empty, contains ':' or upper case, or is not an RFC 3986 scheme.",
        hint: "Write the scheme name alone, in lower case: android:scheme=\"com.contoso.files\".",
        reference: .androidDataElement)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        manifest.intentFilters.flatMap(\.schemes).compactMap { attribute in
            let scheme = attribute.value
            if BuildTimeValue.isPlaceholder(scheme) { return nil }
            let problem: String
            if scheme.isEmpty {
                problem = "android:scheme is empty"
            } else if scheme.containsASCII(":") {
                problem = "android:scheme \"\(scheme)\" contains ':'; write the scheme name alone"
            } else if scheme.hasASCIIUppercase {
                problem = "android:scheme \"\(scheme)\" has upper case letters; Android matches schemes in lower case"
            } else if !URISchemeSyntax.isValid(scheme) {
                problem = "android:scheme \"\(scheme)\" is not a valid URI scheme (RFC 3986 §3.1)"
            } else {
                return nil
            }
            return descriptor.finding(problem, at: attribute.valuePosition)
        }
    }
}
