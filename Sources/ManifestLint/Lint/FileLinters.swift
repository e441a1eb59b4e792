/// The checks of one file, from bytes to diagnoses: parse (and validate), then every rule of the file's kind.
enum FileLinter {
    static func lint(_ bytes: [UInt8], kind: FileKind, context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        switch kind {
        case .androidManifest: androidManifest(bytes, context: context, limits: limits).diagnoses
        case .infoPlist: infoPlist(bytes, context: context, limits: limits)
        case .urlSchemes: urlSchemes(bytes, context: context).diagnoses
        case .assetLinks: assetLinks(bytes, context: context).diagnoses
        case .appSiteAssociation: appSiteAssociation(bytes, context: context).diagnoses
        case .entitlements: entitlements(bytes, context: context, limits: limits)
        }
    }

    static func assetLinks(_ bytes: [UInt8], context: LintContext) -> (document: AssetLinksDocument?, diagnoses: [Diagnosis]) {
        do {
            let root = try AssociationJSON.parse(bytes, limit: AssetLinksDocument.maxBytes, name: "assetlinks.json")
            let document = AssetLinksDocument(root: root)
            return (document, RuleCatalog.assetLinks.flatMap { $0.check(document, context: context) })
        } catch {
            return (nil, [AssetLinksJSONSyntax().diagnosis(error)])
        }
    }

    static func appSiteAssociation(_ bytes: [UInt8], context: LintContext)
        -> (document: AppSiteAssociationDocument?, diagnoses: [Diagnosis])
    {
        do {
            let root = try AssociationJSON.parse(bytes, limit: AppSiteAssociationDocument.maxBytes, name: "apple-app-site-association")
            let document = AppSiteAssociationDocument(root: root)
            return (document, RuleCatalog.appSiteAssociation.flatMap { $0.check(document, context: context) })
        } catch {
            return (nil, [AppSiteAssociationJSONSyntax().diagnosis(error)])
        }
    }

    static func entitlements(_ bytes: [UInt8], context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        let document: XMLDocument
        do {
            document = try XMLReader(limits: limits).read(bytes, validation: ManifestSchemas.propertyListValidation)
        } catch {
            return [XMLParseFailed().diagnosis(error)]
        }
        let entitlements = Entitlements(plist: InfoPlist(root: context.buildValues.resolvingBuildSettings(document.root)))
        return documentDiagnoses(document, schemaRule: PlistSchemaViolation().diagnosis)
            + RuleCatalog.entitlements.flatMap { $0.check(entitlements, context: context) }
    }

    /// Also returns the manifest (when it parses), whose links are compared with other apps' manifests.
    static func androidManifest(_ bytes: [UInt8], context: LintContext, limits: XMLParseLimits)
        -> (diagnoses: [Diagnosis], manifest: AndroidManifest?)
    {
        let document: XMLDocument
        do {
            // Text has no meaning in a manifest (its schema allows it in no element it knows), so indentation
            // need not become nodes.
            document = try XMLReader(limits: limits, dropsBlankText: true)
                .read(bytes, validation: ManifestSchemas.androidManifestValidation)
        } catch {
            return ([XMLParseFailed().diagnosis(error)], nil)
        }
        let manifest = AndroidManifest(root: context.buildValues.resolvingAndroid(document.root))
        var ruleContext = context
        ruleContext.signInReceivers = SignInReceivers(manifest: manifest, context: context)
        let diagnoses = documentDiagnoses(document, schemaRule: AndroidManifestSchemaViolation().diagnosis)
            + RuleCatalog.android.flatMap { $0.check(manifest, context: ruleContext) }
        return (ToolsIgnore.filter(diagnoses, root: document.root), manifest)
    }

    static func infoPlist(_ bytes: [UInt8], context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        let document: XMLDocument
        do {
            document = try XMLReader(limits: limits).read(bytes, validation: ManifestSchemas.propertyListValidation)
        } catch {
            return [XMLParseFailed().diagnosis(error)]
        }
        let plist = InfoPlist(root: context.buildValues.resolvingBuildSettings(document.root))
        return documentDiagnoses(document, schemaRule: PlistSchemaViolation().diagnosis)
            + RuleCatalog.infoPlist.flatMap { $0.check(plist, context: context) }
    }

    /// Also returns the document, whose `UrlSchemes` other files are compared with.
    static func urlSchemes(_ bytes: [UInt8], context: LintContext) -> (document: UrlSchemesDocument?, diagnoses: [Diagnosis]) {
        guard bytes.count <= UrlSchemesDocument.maxBytes else {
            let error = JSONSyntaxError(
                message: "the file is \(bytes.count) bytes, over the limit of \(UrlSchemesDocument.maxBytes) bytes",
                position: .startOfFile)
            return (nil, [URLSchemesJSONSyntax().diagnosis(error)])
        }
        let root: JSONNode
        do {
            root = try PositionedJSONReader.parse(bytes)
        } catch {
            return (nil, [URLSchemesJSONSyntax().diagnosis(error)])
        }
        let document = UrlSchemesDocument(root: root, text: String(decoding: bytes, as: UTF8.self))
        return (document, RuleCatalog.urlSchemes.flatMap { $0.check(document, context: context) })
    }

    private static func documentDiagnoses(
        _ document: XMLDocument, schemaRule: (XMLSchemaViolation) -> Diagnosis
    ) -> [Diagnosis] {
        document.notices.map(XMLEntityNotExpanded().diagnosis) + document.schemaViolations.map(schemaRule)
    }
}
