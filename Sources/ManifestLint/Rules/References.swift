/// The documents rules cite, in one place so that a moved page is fixed once.
extension RuleReference {
    static let officeAppToApp = RuleReference(
        "Office app-to-app sign in (Microsoft's app-to-app docs, apptoapp.rst)",
        url: "https://github.com/microsoft/Office-Online-Test-Tools-and-Documentation/blob/master/docs/native/src/identity/apptoapp.rst")
    static let officeBootstrapper = RuleReference(
        "Office bootstrapper, UrlSchemes (Microsoft's app-to-app docs, bootstrapper.rst)",
        url: "https://github.com/microsoft/Office-Online-Test-Tools-and-Documentation/blob/master/docs/native/src/identity/bootstrapper.rst")
    static let androidExported = RuleReference(
        "Android 12 behavior changes: safer component exporting",
        url: "https://developer.android.com/about/versions/12/behavior-changes-12#exported")
    static let androidActivityExported = RuleReference(
        "Android <activity> android:exported",
        url: "https://developer.android.com/guide/topics/manifest/activity-element#exported")
    static let androidDeepLinks = RuleReference(
        "Android: create deep links to app content",
        url: "https://developer.android.com/training/app-links/deep-linking")
    static let androidDataElement = RuleReference(
        "Android <data> element",
        url: "https://developer.android.com/guide/topics/manifest/data-element")
    static let androidAppLinksVerify = RuleReference(
        "Android: verify App Links",
        url: "https://developer.android.com/training/app-links/verify-android-applinks")
    static let androidVersioning = RuleReference(
        "Android: version your app (versionCode)",
        url: "https://developer.android.com/studio/publish/versioning")
    static let androidManifest = RuleReference(
        "Android app manifest overview",
        url: "https://developer.android.com/guide/topics/manifest/manifest-intro")
    static let androidManifestPlaceholders = RuleReference(
        "Android: inject build variables into the manifest",
        url: "https://developer.android.com/build/manage-manifests#inject_build_variables_into_the_manifest")
    static let appleBuildSettings = RuleReference(
        "Apple: build settings reference", url: "https://developer.apple.com/documentation/xcode/build-settings-reference")
    static let androidAssetLinks = RuleReference(
        "Android: declare website associations (assetlinks.json)",
        url: "https://developer.android.com/training/app-links/configure-assetlinks")
    static let androidAppLinksTroubleshoot = RuleReference(
        "Android: troubleshoot App Links (served over HTTPS, no redirects)",
        url: "https://developer.android.com/training/app-links/troubleshoot")
    static let appleAssociatedDomains = RuleReference(
        "Apple: supporting associated domains", url: "https://developer.apple.com/documentation/xcode/supporting-associated-domains")
    static let appleApplinksDetails = RuleReference(
        "Apple: applinks.details",
        url: "https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary")
    static let appleApplinksComponents = RuleReference(
        "Apple: applinks.details.components",
        url: "https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary")
    static let appleWebAuthenticationCallback = RuleReference(
        "Apple: ASWebAuthenticationSession.Callback (https callbacks, iOS 17.4)",
        url: "https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback")
    static let rfc3986Scheme = RuleReference(
        "RFC 3986 §3.1 Scheme", url: "https://www.rfc-editor.org/rfc/rfc3986#section-3.1")
    static let rfc8252PrivateUse = RuleReference(
        "RFC 8252 §7.1 Private-Use URI Scheme Redirection", url: "https://www.rfc-editor.org/rfc/rfc8252#section-7.1")
    static let appleURLTypes = RuleReference(
        "Apple: CFBundleURLTypes",
        url: "https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleurltypes")
    static let appleQueriesSchemes = RuleReference(
        "Apple: LSApplicationQueriesSchemes",
        url: "https://developer.apple.com/documentation/bundleresources/information-property-list/lsapplicationqueriesschemes")
    static let appleCustomURLScheme = RuleReference(
        "Apple: defining a custom URL scheme for your app",
        url: "https://developer.apple.com/documentation/xcode/defining-a-custom-url-scheme-for-your-app")
    static let applePropertyList = RuleReference(
        "Apple: property list programming guide (XML format)",
        url: "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/PropertyLists/")
    static let xml = RuleReference("Extensible Markup Language (XML) 1.0", url: "https://www.w3.org/TR/xml/")
    static let rfc8259 = RuleReference("RFC 8259 The JSON Data Interchange Format", url: "https://www.rfc-editor.org/rfc/rfc8259")
    static let urlSchemesSchema = RuleReference(
        "schemas/url_schemes.schema.json (this repository) and Microsoft's app-to-app docs",
        url: "https://github.com/microsoft/Office-Online-Test-Tools-and-Documentation/blob/master/docs/native/src/identity/url_schemes.json")
}
