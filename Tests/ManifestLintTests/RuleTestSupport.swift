import SignInProtocolCore
import Testing

@testable import ManifestLint

/// Runs one rule on a small document, the way FileLinter does, and returns "line:column message" strings.
enum RuleHarness {
    static let contosoSchemes = UrlSchemes(
        iOS: ["com.contoso.files"],
        android: [.app(AndroidAppEntry(minimumVersionCode: 1200, packageName: "com.contoso.files", authActivity: ".AuthActivity"))])

    static func manifest(_ body: String, package: String = "com.contoso.files", versionCode: String = "1200", sdk: String = "")
        -> String
    {
        """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)" android:versionCode="\(versionCode)">\(sdk)
        <application>
        \(body)
        </application>
        </manifest>
        """
    }

    static func run(
        _ rule: some AndroidManifestRule, _ text: String, schemes: UrlSchemes? = contosoSchemes, targetSdk: Int? = nil,
        values: BuildValues = .none, redirectURIs: [String] = [], context base: LintContext? = nil
    ) throws -> [String] {
        let document = try XMLReader().read(Array(text.utf8))
        var context = base ?? LintContext()
        context.urlSchemes = schemes
        context.urlSchemesSource = "UrlSchemes"
        context.targetSdkOverride = targetSdk
        if base == nil || values != .none { context.buildValues = values }
        if base == nil || !redirectURIs.isEmpty { context.redirectURIs = redirectURIs }
        return format(rule.check(AndroidManifest(root: values.resolvingAndroid(document.root)), context: context))
    }

    static func run(
        _ rule: some InfoPlistRule, plist dict: String, schemes: UrlSchemes? = contosoSchemes, values: BuildValues = .none
    ) throws -> [String] {
        let text = "<plist version=\"1.0\">\n<dict>\n\(dict)\n</dict>\n</plist>"
        let document = try XMLReader().read(Array(text.utf8))
        let context = LintContext(urlSchemes: schemes, buildValues: values)
        return format(rule.check(InfoPlist(root: values.resolvingBuildSettings(document.root)), context: context))
    }

    static func run(_ rule: some UrlSchemesRule, json: String) throws -> [String] {
        let document = UrlSchemesDocument(root: try PositionedJSONReader.parse(Array(json.utf8)), text: json)
        return format(rule.check(document, context: LintContext()))
    }

    static func run(_ rule: some AssetLinksRule, assetLinks json: String, context: LintContext = LintContext()) throws -> [String] {
        format(rule.check(AssetLinksDocument(root: try PositionedJSONReader.parse(Array(json.utf8))), context: context))
    }

    static func run(_ rule: some AppSiteAssociationRule, aasa json: String, context: LintContext = LintContext()) throws -> [String] {
        format(rule.check(AppSiteAssociationDocument(root: try PositionedJSONReader.parse(Array(json.utf8))), context: context))
    }

    static func run(_ rule: some EntitlementsRule, entitlements dict: String, context: LintContext) throws -> [String] {
        let text = "<plist version=\"1.0\">\n<dict>\n\(dict)\n</dict>\n</plist>"
        let root = context.buildValues.resolvingBuildSettings(try XMLReader().read(Array(text.utf8)).root)
        return format(rule.check(Entitlements(plist: InfoPlist(root: root)), context: context))
    }

    static func format(_ diagnoses: [Diagnosis]) -> [String] {
        diagnoses.map { "\($0.position) \($0.severity == $0.rule.severity ? "" : "(\($0.severity.rawValue)) ")\($0.message)" }
    }
}
