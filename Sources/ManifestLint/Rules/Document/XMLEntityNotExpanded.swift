/// ManifestLint never substitutes entities (XXE, "billion laughs"); a value written with an entity is checked as
/// the literal `&name;`, which may differ from what the build tools see.
public struct XMLEntityNotExpanded: LintRule {
    public let descriptor = RuleDescriptor(
        id: "xml-entity-not-expanded",
        severity: .warning,
        summary: "The file uses a custom or external XML entity, which is not expanded.",
        hint: "Write the value itself instead of an entity reference (Android and Xcode files never need entities).",
        reference: .xml)

    public init() {}

    public func diagnosis(_ notice: XMLNotice) -> Diagnosis {
        descriptor.finding(notice.message, at: notice.position)
    }
}
