/// The structure check of schemas/android-manifest.rng (libxml2 RelaxNG). libxml2 stops at the first element that
/// does not match, so one structural error is reported at a time; the rules still run on the rest.
public struct AndroidManifestSchemaViolation: LintRule {
    public let descriptor = RuleDescriptor(
        id: "android-manifest-schema",
        severity: .error,
        summary: "AndroidManifest.xml does not match the schema of the elements sign-in depends on.",
        hint: "Compare the element with schemas/android-manifest.rng: required android:name, true/false booleans, integer versionCode.",
        reference: .androidManifest)

    public init() {}

    public func diagnosis(_ violation: XMLSchemaViolation) -> Diagnosis {
        descriptor.finding(violation.message, at: violation.position)
    }
}
