/// When two activities claim the same custom scheme, Android asks the user to choose (or picks either), so the
/// sign-in result can land in the wrong activity. Rules for http(s) App Links differ and are not checked here.
public struct SchemeClaimedTwice: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-scheme-claimed-twice",
        severity: .warning,
        summary: "The same custom scheme is claimed by VIEW filters of two different activities.",
        hint: "Let one activity own each custom scheme, or tell them apart by android:host or android:path.",
        reference: .androidDeepLinks)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        var owner = [String: AndroidComponent]()
        var diagnoses = [Diagnosis]()
        for component in manifest.components where component.kind == .activity || component.kind == .activityAlias {
            var seenHere = Set<String>()
            for filter in component.intentFilters where filter.isView {
                for scheme in filter.schemes {
                    let key = scheme.value.asciiLowercasedForMatching
                    guard !key.isEmpty, !URISchemeSyntax.publicSchemes.contains(key),
                        !BuildTimeValue.isPlaceholder(key), seenHere.insert(key).inserted
                    else { continue }
                    if let first = owner[key] {
                        diagnoses.append(
                            descriptor.finding(
                                "scheme \"\(scheme.value)\" is also claimed by \(first.label) on line \(first.element.position.line)",
                                at: scheme.valuePosition))
                    } else {
                        owner[key] = component
                    }
                }
            }
        }
        return diagnoses
    }
}
