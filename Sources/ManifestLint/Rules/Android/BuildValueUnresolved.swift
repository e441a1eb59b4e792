/// Gradle fills `${name}` manifest placeholders and `@string/…` resources in at build time; from source the rules
/// cannot know the value, so instead of guessing they skip it and this rule says once which value went unchecked.
/// https://developer.android.com/build/manage-manifests#inject_build_variables_into_the_manifest
public struct BuildValueUnresolved: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-build-value-unresolved",
        severity: .info,
        summary: "A value the sign-in checks need is a manifest placeholder or resource, so it could not be checked.",
        hint: "Give the value with --placeholder NAME=VALUE (as manifestPlaceholders does) or --resources res/values/strings.xml.",
        reference: .androidManifestPlaceholders)

    public init() {}

    /// The `<data>` attributes the link rules read.
    static let dataAttributes = ["scheme", "host", "path", "pathPrefix", "pathPattern"]

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        for component in manifest.components {
            if let exported = component.exported { diagnoses += unresolved(exported) }
            for filter in component.intentFilters {
                if let autoVerify = filter.autoVerify { diagnoses += unresolved(autoVerify) }
                // Most filters have no build-time value at all: one look at every value says so, instead of five
                // searches by name (4.8 M -> 2.1 M instructions on the 5,000-line benchmark manifest, callgrind).
                guard filter.data.contains(where: { $0.attributes.contains { BuildTimeValue.isPlaceholder($0.value) } })
                else { continue }
                for name in Self.dataAttributes { diagnoses += filter.dataAttributes(name).flatMap(unresolved) }
            }
        }
        return diagnoses
    }

    private func unresolved(_ attribute: XMLAttribute) -> [Diagnosis] {
        guard BuildTimeValue.isPlaceholder(attribute.value) else { return [] }
        let references = BuildValues.unresolvedReferences(in: attribute.value)
        let how = references.map { reference in
            reference.hasPrefix("@string/")
                ? "--resources (for \(reference))"
                : reference.hasPrefix("@") ? "a literal value (for \(reference))" : "--placeholder \(reference.dropFirst(2).dropLast())=VALUE"
        }
        return [
            descriptor.finding(
                "\(attribute.qualifiedName) \"\(attribute.value)\" is filled in at build time and could not be checked; give \(how.joined(separator: ", "))",
                at: attribute.valuePosition)
        ]
    }
}
