import SignInProtocol

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

    public init(urlSchemes: UrlSchemes? = nil, urlSchemesSource: String = "UrlSchemes", targetSdkOverride: Int? = nil) {
        self.urlSchemes = urlSchemes
        self.urlSchemesSource = urlSchemesSource
        self.targetSdkOverride = targetSdkOverride
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
