/// An element of a parsed XML document, copied out of libxml2 so that no libxml2 pointer outlives the parse.
///
/// Only what linting needs is kept: names, attributes, child elements and the element's own character data.
/// Entity references are never expanded: they appear in `text` and attribute values as `&name;`.
public struct XMLElement: Sendable, Hashable {
    /// The local name (`activity` for `<activity>`).
    public var name: String
    public var namespaceURI: String?
    /// The prefix as written, if any (`android` for `<android:foo>`).
    public var prefix: String?
    public var attributes: [XMLAttribute]
    public var children: [XMLElement]
    /// The element's direct character data (text and CDATA children), concatenated.
    public var text: String
    /// Where the start tag's `<` is.
    public var position: SourcePosition

    public init(
        name: String, namespaceURI: String? = nil, prefix: String? = nil, attributes: [XMLAttribute] = [],
        children: [XMLElement] = [], text: String = "", position: SourcePosition
    ) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.prefix = prefix
        self.attributes = attributes
        self.children = children
        self.text = text
        self.position = position
    }

    /// The name as written in the document (`android:name`, `activity`).
    public var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }

    /// The attribute with this local name and namespace (nil namespace: an unprefixed attribute).
    public func attribute(_ name: String, namespace: String? = nil) -> XMLAttribute? {
        attributes.first { $0.name == name && $0.namespaceURI == namespace }
    }

    /// Child elements with this local name, in document order.
    public func children(named name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }
}

/// An attribute with the positions of its name and of its value's first character.
public struct XMLAttribute: Sendable, Hashable {
    public var name: String
    public var namespaceURI: String?
    public var prefix: String?
    public var value: String
    /// Where the attribute's name starts.
    public var position: SourcePosition
    /// Where the value starts (just after the opening quote).
    public var valuePosition: SourcePosition

    public init(
        name: String, namespaceURI: String? = nil, prefix: String? = nil, value: String,
        position: SourcePosition, valuePosition: SourcePosition
    ) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.prefix = prefix
        self.value = value
        self.position = position
        self.valuePosition = valuePosition
    }

    public var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
}
