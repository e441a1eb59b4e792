/// The three kinds of file `signin-bridge lint` checks, recognised by name.
public enum FileKind: String, Sendable, Hashable, CaseIterable {
    case androidManifest = "AndroidManifest.xml"
    case infoPlist = "Info.plist"
    case urlSchemes = "url_schemes.json"

    /// The kind a file of this exact name is (how files are found in directories).
    public init?(fileName: String) {
        self.init(rawValue: fileName)
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
