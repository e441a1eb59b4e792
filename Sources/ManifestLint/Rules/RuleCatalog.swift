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
        BuildValueUnresolved(),
        AppLinksHostUnverified(),
    ]

    public static let infoPlist: [any InfoPlistRule] = [
        URLTypesMissing(),
        URLTypesMalformed(),
        SchemeNotRegistered(),
        SchemeSyntax(),
        QueriesSchemesLimit(),
        QueriesOfficeSchemeMissing(),
        URLNameNotReverseDNS(),
        BuildSettingUnresolved(),
    ]

    public static let urlSchemes: [any UrlSchemesRule] = [
        UrlSchemesSchema(),
        UnknownPlatform(),
        AndroidEntryIncomplete(),
        DuplicateEntry(),
    ]

    public static let assetLinks: [any AssetLinksRule] = [
        AssetLinksShape(),
        AssetLinksHandleAllURLsMissing(),
        AssetLinksFingerprintFormat(),
        AssetLinksRedirectExcluded(),
    ]

    public static let appSiteAssociation: [any AppSiteAssociationRule] = [
        AppSiteAssociationShape(),
        AppSiteAssociationAppIDFormat(),
        AppSiteAssociationComponentKeys(),
        AppSiteAssociationRedirectExcluded(),
        AppSiteAssociationRedirectUnmatched(),
        AppSiteAssociationWebCredentialsMissing(),
    ]

    /// How `lint --fetch` found each association file served.
    public static let wellKnownResponse: [any WellKnownResponseRule] = [
        WellKnownFileUnreachable(),
        WellKnownFileRedirected(),
        WellKnownFileStatus(),
        WellKnownFileContentType(),
        WellKnownFileServed(),
    ]

    public static let entitlements: [any EntitlementsRule] = [
        AppLinksDomainUnassociated(),
        WebCredentialsDomainUnassociated(),
    ]

    /// Checks of the document itself, run by the file linters before the rules above.
    public static let document: [any LintRule] = [
        XMLParseFailed(),
        XMLEntityNotExpanded(),
        AndroidManifestSchemaViolation(),
        PlistSchemaViolation(),
        URLSchemesJSONSyntax(),
        AssetLinksJSONSyntax(),
        AppSiteAssociationJSONSyntax(),
    ]

    /// Every rule's descriptor, document checks first.
    public static var all: [RuleDescriptor] { checked.map(\.descriptor) }

    /// Every rule, document checks first.
    public static var checked: [any LintRule] {
        document + android as [any LintRule] + infoPlist as [any LintRule] + urlSchemes as [any LintRule]
            + assetLinks as [any LintRule] + appSiteAssociation as [any LintRule] + wellKnownResponse as [any LintRule]
            + entitlements as [any LintRule]
    }
}
