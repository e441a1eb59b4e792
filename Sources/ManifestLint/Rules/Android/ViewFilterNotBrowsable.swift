/// Office and browsers only resolve VIEW intents to filters with both DEFAULT and BROWSABLE (the Office docs'
/// manifest snippet declares both). Sign-in receivers must be reachable that way, and so must a BROWSABLE filter
/// without DEFAULT (meant for browsers, never matched); an app-internal deep link that only the app's own
/// notifications open needs neither, so elsewhere this is info. Filters whose data are MIME types only (document
/// viewers) are not link targets and are left alone.
public struct ViewFilterNotBrowsable: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-view-filter-not-browsable",
        severity: .error,
        summary: "A sign-in receiver's VIEW intent filter lacks category DEFAULT or BROWSABLE.",
        hint: "Add <category android:name=\"android.intent.category.DEFAULT\"/> and <category android:name=\"android.intent.category.BROWSABLE\"/> to the filter.",
        reference: .androidDeepLinks)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let receivers = SignInReceivers.of(manifest, context: context)
        var diagnoses = [Diagnosis]()
        for component in manifest.components where component.kind == .activity || component.kind == .activityAlias {
            for filter in component.intentFilters where filter.isView {
                let mimeOnly = !filter.data.isEmpty && filter.schemes.isEmpty
                guard !mimeOnly else { continue }
                // Two names looked up in a filter's few categories: no set of them to build (callgrind).
                let missing = [IntentFilter.defaultCategory, IntentFilter.browsableCategory].filter { category in
                    !filter.categories.contains { $0.value == category }
                }
                guard !missing.isEmpty else { continue }
                let names = missing.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
                let message = "VIEW intent filter of \(component.label) lacks category \(names.joined(separator: " and "))"
                diagnoses.append(receivers.finding(descriptor, message, at: filter.element.position, of: component, filter: filter))
            }
        }
        return diagnoses
    }
}
