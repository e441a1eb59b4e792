/// The checks of one file, from bytes to diagnoses: parse (and validate), then every rule of the file's kind.
enum FileLinter {
    static func lint(_ bytes: [UInt8], kind: FileKind, context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        switch kind {
        case .androidManifest: androidManifest(bytes, context: context, limits: limits)
        case .infoPlist: infoPlist(bytes, context: context, limits: limits)
        case .urlSchemes: urlSchemes(bytes, context: context).diagnoses
        }
    }

    static func androidManifest(_ bytes: [UInt8], context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        let document: XMLDocument
        do {
            document = try XMLReader(limits: limits).read(bytes, schema: ManifestSchemas.androidManifest)
        } catch {
            return [XMLParseFailed().diagnosis(error)]
        }
        let manifest = AndroidManifest(root: document.root)
        return documentDiagnoses(document, schemaRule: AndroidManifestSchemaViolation().diagnosis)
            + RuleCatalog.android.flatMap { $0.check(manifest, context: context) }
    }

    static func infoPlist(_ bytes: [UInt8], context: LintContext, limits: XMLParseLimits) -> [Diagnosis] {
        let document: XMLDocument
        do {
            document = try XMLReader(limits: limits).read(bytes, schema: ManifestSchemas.propertyList)
        } catch {
            return [XMLParseFailed().diagnosis(error)]
        }
        let plist = InfoPlist(root: document.root)
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
