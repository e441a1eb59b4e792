/// The structure check of schemas/plist.rng (libxml2 RelaxNG): Xcode and iOS refuse a property list that breaks it.
public struct PlistSchemaViolation: LintRule {
    public let descriptor = RuleDescriptor(
        id: "plist-schema",
        severity: .error,
        summary: "Info.plist is not a valid XML property list (plist 1.0).",
        hint: "A dict alternates <key> and one value; values are dict, array, string, integer, real, true, false, date or data.",
        reference: .applePropertyList)

    public init() {}

    public func diagnosis(_ violation: XMLSchemaViolation) -> Diagnosis {
        descriptor.finding(violation.message, at: violation.position)
    }
}
