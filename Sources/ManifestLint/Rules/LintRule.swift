import SignInProtocolCore

/// A check with a stable identity. Each rule is one type in one file under `Rules/`, listed once in
/// `RuleCatalog`, with its own test; a test makes sure no file is left out of the catalog.
public protocol LintRule: Sendable {
    var descriptor: RuleDescriptor { get }
}

/// What rules may know beyond the file they check.
public struct LintContext: Sendable {
    /// The UrlSchemes the host advertises (from `--url-schemes`, `--challenge` or the nearest url_schemes.json);
    /// nil when there is none, and rules that compare against it stay silent.
    public var urlSchemes: UrlSchemes?
    /// Where `urlSchemes` came from, for messages ("url_schemes.json", "the challenge").
    public var urlSchemesSource: String
    /// `--target-sdk`: overrides the manifest's own targetSdkVersion, as Gradle's value does in a merged manifest.
    public var targetSdkOverride: Int?

    /// Placeholders, string resources and build settings that stand for what the build fills in.
    public var buildValues: BuildValues
    /// Redirect URIs the app receives sign-in results at (`--redirect-uri`, the config's `redirect-uris`): the
    /// activities whose filters match them are sign-in receivers.
    public var redirectURIs: [String]
    /// `--assetlinks`: the assetlinks.json served by each host, by lower-case host name.
    public var assetLinks: [String: AssetLinksDocument] = [:]
    /// `--aasa`: the apple-app-site-association served by each domain, by lower-case domain name.
    public var appSiteAssociations: [String: AppSiteAssociationDocument] = [:]
    /// `--signing-cert-sha256`: the app's signing certificate fingerprints (`AA:BB:…`).
    public var signingCertificates: [String] = []
    /// `--app-id TEAMID.bundle`: the iOS app, when the entitlements do not say it.
    public var appID: String?
    /// The https URLs the run's files and options say the apps receive, for the association files' rules.
    public var redirectClaims: [RedirectClaim] = []
    /// The host that serves the association file being checked, when its path or option says it.
    public var associationHost: String?
    /// The sign-in receivers of the manifest being checked, found once before its rules run (FileLinter); nil
    /// elsewhere, and `SignInReceivers.of` finds them then.
    var signInReceivers: SignInReceivers?

    public init(
        urlSchemes: UrlSchemes? = nil, urlSchemesSource: String = "UrlSchemes", targetSdkOverride: Int? = nil,
        buildValues: BuildValues = .none, redirectURIs: [String] = []
    ) {
        self.urlSchemes = urlSchemes
        self.urlSchemesSource = urlSchemesSource
        self.targetSdkOverride = targetSdkOverride
        self.buildValues = buildValues
        self.redirectURIs = redirectURIs
        redirectClaims = redirectURIs.compactMap { RedirectClaim($0, origin: "--redirect-uri", isSignInCallback: true) }
    }
}

/// A rule about an AndroidManifest.xml.
public protocol AndroidManifestRule: LintRule {
    func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis]
}

/// A rule about an iOS Info.plist.
public protocol InfoPlistRule: LintRule {
    func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis]
}

/// A rule about a url_schemes.json file or the UrlSchemes value of a challenge.
public protocol UrlSchemesRule: LintRule {
    func check(_ document: UrlSchemesDocument, context: LintContext) -> [Diagnosis]
}

/// A rule about an Android `assetlinks.json` (Digital Asset Links).
public protocol AssetLinksRule: LintRule {
    func check(_ document: AssetLinksDocument, context: LintContext) -> [Diagnosis]
}

/// A rule about an iOS `apple-app-site-association` file.
public protocol AppSiteAssociationRule: LintRule {
    func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis]
}

/// A rule about how a host served an association file (`lint --fetch`), before its content is read.
public protocol WellKnownResponseRule: LintRule {
    func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis]
}

/// A rule about an Xcode `.entitlements` file.
public protocol EntitlementsRule: LintRule {
    func check(_ entitlements: Entitlements, context: LintContext) -> [Diagnosis]
}
