import SignInProtocolCore

/// A url_schemes.json file (or the JSON inside a challenge's UrlSchemes) with positions, and the `UrlSchemes`
/// value SignInProtocol decodes from it when it is valid.
public struct UrlSchemesDocument: Sendable {
    public var root: JSONNode
    /// nil when SignInProtocol refuses the JSON; the schema and rule findings say why.
    public var urlSchemes: UrlSchemes?

    public init(root: JSONNode, text: String) {
        self.root = root
        urlSchemes = try? UrlSchemes(json: text, limit: InputLimit(maxBytes: UrlSchemesDocument.maxBytes))
    }

    /// url_schemes.json holds a handful of names; 64 KiB is far above any real one.
    public static let maxBytes = 64 * 1024

    /// The platform keys Office reads, spelled as they must appear.
    public static let platforms = [UrlSchemes.Key.iOS, UrlSchemes.Key.android, UrlSchemes.Key.uwp]

    /// The members of the top-level object, in order (empty when the root is not an object).
    public var members: [JSONMember] {
        if case .object(let members) = root.value { return members }
        return []
    }

    /// The first member with this key.
    public func platform(_ key: String) -> JSONMember? { members.first { $0.key == key } }
}
