/// A value of an XML property list with where it is, read leniently from the element tree: pieces that break the
/// plist schema are skipped here (the schema check reports them).
public struct PlistNode: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case dictionary([PlistEntry])
        case array([PlistNode])
        case string(String)
        case integer(String)
        case real(String)
        case boolean(Bool)
        case date(String)
        case data
    }

    public var value: Value
    public var position: SourcePosition

    public init?(element: XMLElement) {
        position = element.position
        switch element.name {
        case "dict": value = .dictionary(Self.entries(of: element))
        case "array": value = .array(element.children.compactMap(PlistNode.init(element:)))
        case "string": value = .string(element.text)
        case "integer": value = .integer(element.text)
        case "real": value = .real(element.text)
        case "true": value = .boolean(true)
        case "false": value = .boolean(false)
        case "date": value = .date(element.text)
        case "data": value = .data
        default: return nil
        }
    }

    /// A dict is `<key>` followed by one value, repeated.
    private static func entries(of dict: XMLElement) -> [PlistEntry] {
        var entries = [PlistEntry]()
        var pendingKey: XMLElement?
        for child in dict.children {
            if child.name == "key" {
                if let key = pendingKey { entries.append(PlistEntry(key: key.text, keyPosition: key.position, value: nil)) }
                pendingKey = child
            } else if let key = pendingKey {
                entries.append(PlistEntry(key: key.text, keyPosition: key.position, value: PlistNode(element: child)))
                pendingKey = nil
            }
        }
        if let key = pendingKey { entries.append(PlistEntry(key: key.text, keyPosition: key.position, value: nil)) }
        return entries
    }

    /// The plist type name, for messages: "dict", "array", "string", …
    public var typeName: String {
        switch value {
        case .dictionary: "dict"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean(let flag): flag ? "true" : "false"
        case .date: "date"
        case .data: "data"
        }
    }

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var array: [PlistNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var dictionary: [PlistEntry]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    /// The first entry with this key, if this node is a dict.
    public func entry(_ key: String) -> PlistEntry? {
        dictionary?.first { $0.key == key }
    }
}

/// One key of a dict and its value (nil when the key has no value after it).
public struct PlistEntry: Sendable, Hashable {
    public var key: String
    public var keyPosition: SourcePosition
    public var value: PlistNode?
}

/// An iOS Info.plist: the top-level dict of a property list.
public struct InfoPlist: Sendable {
    /// `<plist>`.
    public var rootElement: XMLElement
    /// The value inside `<plist>`, normally a dict.
    public var root: PlistNode?

    public init(root element: XMLElement) {
        rootElement = element
        root = element.children.first.flatMap(PlistNode.init(element:))
    }

    public func entry(_ key: String) -> PlistEntry? { root?.entry(key) }

    /// Where findings about a missing top-level key go.
    public var headPosition: SourcePosition { root?.position ?? rootElement.position }

    /// Every string in the `CFBundleURLSchemes` arrays of `CFBundleURLTypes`, with its position.
    public var registeredSchemes: [(scheme: String, position: SourcePosition)] {
        (entry(Keys.urlTypes)?.value?.array ?? []).flatMap { type in
            (type.entry(Keys.urlSchemes)?.value?.array ?? []).compactMap { node in
                node.string.map { ($0, node.position) }
            }
        }
    }

    public enum Keys {
        public static let urlTypes = "CFBundleURLTypes"
        public static let urlSchemes = "CFBundleURLSchemes"
        public static let urlName = "CFBundleURLName"
        public static let queriesSchemes = "LSApplicationQueriesSchemes"
    }
}
