/// Why a file could not be read as XML at all. Only the first problem is kept: what libxml2 reports after it is
/// almost always a consequence (one unclosed tag makes every enclosing tag "unclosed" too).
public struct XMLReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The file is larger than `XMLParseLimits.maxBytes`.
        case tooLarge(limit: Int, actual: Int)
        /// Elements are nested deeper than `XMLParseLimits.maxDepth`.
        case tooDeep(limit: Int)
        /// libxml2 found the document not well-formed (including entity loops and amplification).
        case notWellFormed(libxml2Code: Int)
        /// An Apple binary property list (`bplist00`), which is not XML.
        case binaryPropertyList
    }

    public var reason: Reason
    /// One sentence saying what is wrong, in terms of the document.
    public var message: String
    public var position: SourcePosition

    public init(reason: Reason, message: String, position: SourcePosition) {
        self.reason = reason
        self.message = message
        self.position = position
    }

    public var description: String { "\(position): \(message)" }
}

/// Something the reader deliberately did not do, reported so that nothing is lost silently.
public struct XMLNotice: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `&name;` was left as written: ManifestLint never substitutes entities.
        case entityNotExpanded(name: String)
        /// An external entity or DTD was not fetched (no network, no file access).
        case externalResourceRefused(uri: String)
    }

    public var kind: Kind
    public var message: String
    public var position: SourcePosition
}

/// A place where the document does not match its schema, as libxml2's RelaxNG validator reports it.
public struct XMLSchemaViolation: Sendable, Hashable {
    public var message: String
    public var position: SourcePosition
}
