/// App Links verification (`android:autoVerify="true"`) applies to http and https only; a custom scheme in the same
/// filter makes the filter a mix of verified and unverified links, and Android may skip verification.
public struct AutoVerifyCustomScheme: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-autoverify-custom-scheme",
        severity: .error,
        summary: "An android:autoVerify intent filter declares a scheme other than http/https.",
        hint: "Keep autoVerify filters to http and https; put custom schemes in a separate intent filter.",
        reference: .androidAppLinksVerify)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        for filter in manifest.intentFilters where filter.autoVerify?.value == "true" {
            let schemes = filter.schemes.filter { !BuildTimeValue.isPlaceholder($0.value) }
            let web = schemes.filter { ["http", "https"].contains($0.value) }
            for scheme in schemes where !["http", "https"].contains(scheme.value) {
                diagnoses.append(
                    descriptor.finding(
                        "autoVerify intent filter declares scheme \"\(scheme.value)\"; only http and https are verified",
                        at: scheme.valuePosition))
            }
            // A filter whose schemes are all placeholders is reported by android-build-value-unresolved instead.
            if web.isEmpty, let autoVerify = filter.autoVerify, filter.schemes.isEmpty {
                diagnoses.append(
                    descriptor.finding("autoVerify intent filter declares no http or https scheme", at: autoVerify.position))
            }
        }
        return diagnoses
    }
}
