/// Every rule ManifestLint runs, in the order findings of one position are listed. Adding a rule: one file under
/// `Rules/`, one line here, one test (RuleCatalogTests checks that no rule file is missing from this list).
public enum RuleCatalog {
    public static let android: [any AndroidManifestRule] = [
        AuthActivityMissing(),
        AuthActivityNotExported(),
        ExportedMissing(),
        ViewFilterNotBrowsable(),
        DataSchemeSyntax(),
        HostWildcard(),
        PathWithoutSlash(),
        AutoVerifyCustomScheme(),
        SchemeClaimedTwice(),
        SchemeNotReverseDomain(),
        VersionCodeBelowMinimum(),
    ]

    public static let infoPlist: [any InfoPlistRule] = [
        URLTypesMissing(),
        URLTypesMalformed(),
        SchemeNotRegistered(),
        SchemeSyntax(),
        QueriesSchemesLimit(),
        QueriesOfficeSchemeMissing(),
        URLNameNotReverseDNS(),
    ]

    public static let urlSchemes: [any UrlSchemesRule] = [
        UrlSchemesSchema(),
        UnknownPlatform(),
        AndroidEntryIncomplete(),
        DuplicateEntry(),
    ]

    /// Checks of the document itself, run by the file linters before the rules above.
    public static let document: [any LintRule] = [
        XMLParseFailed(),
        XMLEntityNotExpanded(),
        AndroidManifestSchemaViolation(),
        PlistSchemaViolation(),
        URLSchemesJSONSyntax(),
    ]

    /// Every rule's descriptor, document checks first.
    public static var all: [RuleDescriptor] {
        (document as [any LintRule] + android as [any LintRule] + infoPlist as [any LintRule]
            + urlSchemes as [any LintRule]).map(\.descriptor)
    }
}
