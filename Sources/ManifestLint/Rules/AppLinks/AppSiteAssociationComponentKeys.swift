/// A `components` entry knows `/`, `?`, `#` (patterns), `exclude`, `caseSensitive`, `percentEncoded` (booleans)
/// and `comment`; a misspelled key is ignored by iOS, so the component matches more (or less) than meant.
public struct AppSiteAssociationComponentKeys: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-component-keys",
        severity: .warning,
        summary: "A components entry has an unknown key or a value of the wrong type.",
        hint: "Use only \"/\", \"?\", \"#\" (strings; \"?\" may be an object), \"exclude\", \"caseSensitive\", \"percentEncoded\" (booleans) and \"comment\".",
        reference: .appleApplinksComponents)

    public init() {}

    static let patterns: Set<String> = ["/", "#", "comment"]
    static let flags: Set<String> = ["exclude", "caseSensitive", "percentEncoded"]

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        document.details.flatMap(\.components).flatMap(\.members!).compactMap { member in
            let ok: Bool
            switch member.key {
            case let key where Self.patterns.contains(key): ok = member.value.string != nil
            case let key where Self.flags.contains(key):
                if case .boolean = member.value.value { ok = true } else { ok = false }
            case "?": ok = member.value.string != nil || member.value.members != nil
            default:
                return descriptor.finding("unknown components key \"\(member.key)\": iOS ignores it", at: member.keyPosition)
            }
            return ok ? nil : descriptor.finding("components key \"\(member.key)\" has a \(member.value.typeName) value", at: member.value.position)
        }
    }
}
