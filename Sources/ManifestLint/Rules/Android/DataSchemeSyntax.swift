import SignInProtocolCore

/// Android matches `android:scheme` case-sensitively against the lower-cased scheme of the intent's URI, so an
/// upper-case, empty or `:`-terminated scheme never matches anything. An error on a filter a browser reaches or
/// of a sign-in receiver, info elsewhere.
public struct DataSchemeSyntax: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-scheme-syntax",
        severity: .error,
        summary: "A <data android:scheme> is empty, contains ':' or upper case, or is not an RFC 3986 scheme.",
        hint: "Write the scheme name alone, in lower case: android:scheme=\"com.contoso.files\".",
        reference: .androidDataElement)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        SignInReceivers.of(manifest, context: context).attributeFindings(
            descriptor, in: manifest, attributes: \.schemes, problem: { Self.problem($0.value) })
    }

    static func problem(_ scheme: String) -> String? {
        if BuildTimeValue.isPlaceholder(scheme) { return nil }
        if scheme.isEmpty { return "android:scheme is empty" }
        if scheme.containsASCII(":") { return "android:scheme \"\(scheme)\" contains ':'; write the scheme name alone" }
        if scheme.hasASCIIUppercase {
            return "android:scheme \"\(scheme)\" has upper case letters; Android matches schemes in lower case"
        }
        if !URIComponents.isValidScheme(scheme) { return "android:scheme \"\(scheme)\" is not a valid URI scheme (RFC 3986 §3.1)" }
        return nil
    }
}
