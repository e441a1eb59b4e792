/// The kinds of file `signin-bridge lint` checks, recognised by name.
public enum FileKind: String, Sendable, Hashable, CaseIterable {
    case androidManifest = "AndroidManifest.xml"
    case infoPlist = "Info.plist"
    case urlSchemes = "url_schemes.json"
    /// Android App Links: `https://HOST/.well-known/assetlinks.json`.
    case assetLinks = "assetlinks.json"
    /// iOS Universal Links: `https://DOMAIN/.well-known/apple-app-site-association` (no extension).
    case appSiteAssociation = "apple-app-site-association"
    /// Xcode entitlements, any `NAME.entitlements`.
    case entitlements = ".entitlements"

    /// The kind a file of this name is (how files are found in directories).
    public init?(fileName: String) {
        if fileName.hasSuffix(FileKind.entitlements.rawValue), fileName.count > FileKind.entitlements.rawValue.count {
            self = .entitlements
        } else if fileName == "apple-app-site-association.json" {
            self = .appSiteAssociation
        } else if let kind = FileKind(rawValue: fileName), kind != .entitlements {
            self = kind
        } else {
            return nil
        }
    }

    /// The kind of a file given by path with another name, by extension: `.xml` is a manifest, `.plist` a
    /// property list, `.json` UrlSchemes.
    public init?(extensionOf fileName: String) {
        if let exact = FileKind(fileName: fileName) {
            self = exact
        } else if fileName.hasSuffix(".xml") {
            self = .androidManifest
        } else if fileName.hasSuffix(".plist") {
            self = .infoPlist
        } else if fileName.hasSuffix(".json") {
            self = .urlSchemes
        } else {
            return nil
        }
    }
}
