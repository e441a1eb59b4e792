import CLibXML2

/// A parsed document: the element tree (no libxml2 pointer survives the parse), what the reader declined to do,
/// and where the document breaks its schema.
public struct XMLDocument: Sendable, Hashable {
    public var root: XMLElement
    public var notices: [XMLNotice]
    public var schemaViolations: [XMLSchemaViolation]
}

/// Reads untrusted XML with libxml2, safely: no network, no entity substitution, no DTD loading, refused external
/// entities, a byte and a depth limit, and every libxml2 message captured instead of printed.
public struct XMLReader: Sendable {
    public var limits: XMLParseLimits
    /// Drops whitespace-only text between elements while parsing (`blankTextOptions`), for vocabularies where it is
    /// only layout.
    var dropsBlankText = false

    public init(limits: XMLParseLimits = .default) {
        self.limits = limits
    }

    init(limits: XMLParseLimits, dropsBlankText: Bool) {
        self.limits = limits
        self.dropsBlankText = dropsBlankText
    }

    /// Without XML_PARSE_NOENT entities stay references, without XML_PARSE_DTDLOAD no external DTD is read; NONET
    /// blocks the network and our entity loader blocks the rest. NOCDATA merges CDATA into text, BIG_LINES keeps
    /// line numbers past 65535 exact. COMPACT stores short text in its node instead of a separate allocation
    /// (xmllint's default; the text stays readable through `content` as long as the document lives).
    static let parseOptions = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
            | XML_PARSE_COMPACT.rawValue)

    /// `parseOptions` plus NOBLANKS: no text node for the indentation between elements, which for a 5,000-line
    /// manifest is a node per element that nothing reads. libxml2 keeps whitespace that is an element's whole
    /// content or is next to other text (`areBlanks` in libxml2's parser.c), so only whitespace between markup
    /// (elements, comments, processing instructions) goes.
    static let blankTextOptions = parseOptions | Int32(XML_PARSE_NOBLANKS.rawValue)

    /// The name libxml2 gives the document in its errors, to tell them from errors inside an entity's text.
    static let documentName = "document"

    /// Parses `bytes`, then validates against `schema` when one is given.
    public func read(_ bytes: [UInt8], schema: RelaxNGSchema? = nil) throws(XMLReadError) -> XMLDocument {
        try read(bytes, validation: schema.map { compiled in SchemaValidation(relaxNG: { compiled }) })
    }

    /// Parses `bytes`, then validates them as `validation` says when it is given.
    func read(_ bytes: [UInt8], validation: SchemaValidation?) throws(XMLReadError) -> XMLDocument {
        guard bytes.count <= limits.maxBytes else {
            throw XMLReadError(
                reason: .tooLarge(limit: limits.maxBytes, actual: bytes.count),
                message: "the file is \(bytes.count) bytes, over the limit of \(limits.maxBytes) bytes",
                position: .startOfFile)
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw XMLReadError(
                reason: .binaryPropertyList,
                message: "this is a binary property list, not XML (convert it with `plutil -convert xml1`)",
                position: .startOfFile)
        }
        let capture = LibXML2ErrorCapture()
        let result: Result<XMLDocument, XMLReadError> = capture.run {
            bytes.withUnsafeBufferPointer { buffer in parse(buffer, validation: validation, capture: capture) }
        }
        return try result.get()
    }

    private func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, validation: SchemaValidation?, capture: LibXML2ErrorCapture
    ) -> Result<XMLDocument, XMLReadError> {
        guard let context = xmlNewParserCtxt() else {
            return .failure(XMLReadError(reason: .notWellFormed(libxml2Code: 2), message: "out of memory", position: .startOfFile))
        }
        let parsed = buffer.withMemoryRebound(to: CChar.self) { chars in
            xmlCtxtReadMemory(
                context, chars.baseAddress, Int32(chars.count), Self.documentName, nil,
                dropsBlankText ? Self.blankTextOptions : Self.parseOptions)
        }
        // Freed now rather than after the copy below: the context holds libxml2's own copy of the whole input
        // (xmlCtxtReadMemory reads from a copy), whose pages the copy can then reuse. The document keeps its names:
        // it holds a reference to the context's dictionary.
        xmlFreeParserCtxt(context)
        guard let document = parsed else { return .failure(Self.firstParseError(capture)) }
        defer { xmlFreeDoc(document) }
        guard let rootNode = xmlDocGetRootElement(document) else {
            return .failure(Self.firstParseError(capture))
        }

        var schema: RelaxNGSchema?
        var validationErrors = [LibXML2Error]()
        if let validation, !validation.acceptedWithoutRelaxNG(rootNode) {
            let compiled = validation.relaxNG()
            schema = compiled
            validationErrors = compiled.validate(document, capture: capture)
        }
        let reported = Self.primarySchemaError(validationErrors)
        var builder = TreeBuilder(
            sourceMap: XMLSourceMap(bytes: buffer), maxDepth: limits.maxDepth, interestingNode: reported?.node)
        let root: XMLElement
        do throws(XMLReadError) {
            root = try builder.element(rootNode, depth: 1)
        } catch {
            return .failure(error)
        }
        var notices = builder.notices
        for uri in capture.refusedResources {
            notices.append(
                XMLNotice(
                    kind: .externalResourceRefused(uri: uri),
                    message: "external resource \"\(uri)\" was not loaded: external entities and DTDs are refused",
                    position: .startOfFile))
        }
        var violations = [XMLSchemaViolation]()
        if let reported, let schema {
            violations.append(Self.violation(reported, schema: schema, target: builder.interestingElement))
        }
        return .success(XMLDocument(root: root, notices: notices, schemaViolations: violations))
    }

    // MARK: Errors in terms of the document

    /// libxml2 reports one problem several times over (each enclosing tag of a truncated document is "unclosed");
    /// the first error is the cause.
    private static func firstParseError(_ capture: LibXML2ErrorCapture) -> XMLReadError {
        // An error inside an entity's replacement text has the entity's line numbers: prefer the document's own.
        let inDocument = capture.errors.filter { $0.file == documentName }
        guard
            let first = inDocument.first(where: { $0.level >= 2 }) ?? capture.errors.first(where: { $0.level >= 2 })
                ?? capture.errors.first
        else {
            return XMLReadError(
                reason: .notWellFormed(libxml2Code: 4), message: "the document is empty", position: .startOfFile)
        }
        let position = SourcePosition(line: max(first.line, 1), column: max(first.column, 1))
        let message: String
        switch first.code {
        case Int(XML_ERR_TAG_NOT_FINISHED.rawValue):
            message = "the document ends before <\(first.str1 ?? "?")> (opened on line \(first.int1)) is closed"
        case Int(XML_ERR_ENTITY_LOOP.rawValue):
            message = "entity references loop or expand too much (\"billion laughs\"): the document is refused"
        case Int(XML_ERR_DOCUMENT_EMPTY.rawValue):
            message = "the document is empty"
        default:
            message = "not well-formed XML: \(first.message)"
        }
        return XMLReadError(reason: .notWellFormed(libxml2Code: first.code), message: message, position: position)
    }

    /// libxml2's RelaxNG validator stops at the first element that does not match and then reports every enclosing
    /// element as having "extra content"; the useful error is the first one that is not such an echo.
    static func primarySchemaError(_ errors: [LibXML2Error]) -> LibXML2Error? {
        let echoes: Set<Int> = [
            Int(XML_RELAXNG_ERR_EXTRACONTENT.rawValue), Int(XML_RELAXNG_ERR_NOELEM.rawValue),
            Int(XML_RELAXNG_ERR_CONTENTVALID.rawValue), Int(XML_RELAXNG_ERR_INTERSEQ.rawValue),
        ]
        return errors.first { !echoes.contains($0.code) } ?? errors.first
    }

    private static func violation(
        _ error: LibXML2Error, schema: RelaxNGSchema, target: XMLElement?
    ) -> XMLSchemaViolation {
        guard let target else {
            return XMLSchemaViolation(
                message: "does not match the \(schema.name): \(error.message)",
                position: SourcePosition(line: max(error.line, 1), column: 1))
        }
        let element = "<\(target.qualifiedName)>"
        switch error.code {
        case Int(XML_RELAXNG_ERR_INVALIDATTR.rawValue):
            // "Invalid attribute exported for element activity": the value does not have the type the schema asks.
            let name = error.str1 ?? ""
            if let attribute = target.attributes.first(where: { $0.name == name }) {
                return XMLSchemaViolation(
                    message: "\(element) attribute \(attribute.qualifiedName) has an invalid value \"\(attribute.value)\"",
                    position: attribute.valuePosition)
            }
            return XMLSchemaViolation(message: "\(element) has an invalid attribute \(name)", position: target.position)
        case Int(XML_RELAXNG_ERR_ATTRVALID.rawValue):
            return XMLSchemaViolation(
                message: "\(element) lacks a required attribute or has an invalid one", position: target.position)
        case Int(XML_RELAXNG_ERR_DATATYPE.rawValue), Int(XML_RELAXNG_ERR_TYPEVAL.rawValue),
            Int(XML_RELAXNG_ERR_VALUE.rawValue), Int(XML_RELAXNG_ERR_TYPE.rawValue):
            return XMLSchemaViolation(
                message: "\(element) has an invalid value \"\(target.text)\"", position: target.position)
        case Int(XML_RELAXNG_ERR_ELEMWRONG.rawValue), Int(XML_RELAXNG_ERR_EXTRACONTENT.rawValue):
            return XMLSchemaViolation(message: "\(element) is not allowed here", position: target.position)
        default:
            return XMLSchemaViolation(
                message: "\(element) does not match the \(schema.name): \(error.message)", position: target.position)
        }
    }
}

/// Copies libxml2's tree into `XMLElement` values, matching each element with its start tag in the source map.
///
/// Names and namespaces come from libxml2's dictionary, one pointer per distinct name: each is made a Swift string
/// once and shared after that, instead of a new string per element and attribute (the android namespace URI is 42
/// bytes, a heap allocation each time): with the source map's changes, building the tree of the 5,000-line benchmark
/// manifest went from 38 to 58 M instructions (first measurement) to about 19 M (scripts/bench/lint.sh, callgrind).
private struct TreeBuilder {
    let sourceMap: XMLSourceMap
    let maxDepth: Int
    let interestingNode: UnsafeMutableRawPointer?
    var interestingElement: XMLElement?
    var notices: [XMLNotice] = []
    private var nextTag = 0
    private var sourceMapUsable = true
    private var reportedEntities = Set<String>()
    /// Swift strings of libxml2's names, by the name's address (dictionary names live as long as the document).
    private var names: [UnsafeRawPointer: String] = [:]
    /// The URI and prefix of each namespace declaration, by its address.
    private var namespaces: [UnsafeRawPointer: (uri: String?, prefix: String?)] = [:]

    init(sourceMap: XMLSourceMap, maxDepth: Int, interestingNode: UnsafeMutableRawPointer?) {
        self.sourceMap = sourceMap
        self.maxDepth = maxDepth
        self.interestingNode = interestingNode
    }

    private mutating func name(_ text: UnsafePointer<xmlChar>) -> String {
        if let known = names[UnsafeRawPointer(text)] { return known }
        let made = String(cString: text)
        names[UnsafeRawPointer(text)] = made
        return made
    }

    private mutating func namespace(_ ns: xmlNsPtr?) -> (uri: String?, prefix: String?) {
        guard let ns else { return (nil, nil) }
        if let known = namespaces[UnsafeRawPointer(ns)] { return known }
        let made = (ns.pointee.href.map { String(cString: $0) }, ns.pointee.prefix.map { String(cString: $0) })
        namespaces[UnsafeRawPointer(ns)] = made
        return made
    }

    mutating func element(_ node: xmlNodePtr, depth: Int) throws(XMLReadError) -> XMLElement {
        let elementNamespace = namespace(node.pointee.ns)
        let tag = startTag(node)
        guard depth <= maxDepth else {
            throw XMLReadError(
                reason: .tooDeep(limit: maxDepth),
                message: "elements are nested more than \(maxDepth) levels deep", position: tag.position)
        }
        var result = XMLElement(
            name: name(node.pointee.name), namespaceURI: elementNamespace.uri, prefix: elementNamespace.prefix,
            position: tag.position)

        var attributeCount = 0
        var counting = node.pointee.properties
        while let current = counting {
            attributeCount += 1
            counting = current.pointee.next
        }
        result.attributes.reserveCapacity(attributeCount)  // no regrowth: one allocation per element
        var attribute = node.pointee.properties
        while let current = attribute {
            let attributeNamespace = namespace(current.pointee.ns)
            let prefix = current.pointee.ns?.pointee.prefix
            let source = sourceMap.attributes[tag.attributes].first {
                sourceMap.name($0.name, is: current.pointee.name, prefix: prefix)
            }
            result.attributes.append(
                XMLAttribute(
                    name: name(current.pointee.name), namespaceURI: attributeNamespace.uri,
                    prefix: attributeNamespace.prefix,
                    value: text(
                        of: UnsafeMutablePointer<xmlNode>(OpaquePointer(current.pointee.children)),
                        at: source?.valuePosition ?? tag.position),
                    position: source?.position ?? tag.position, valuePosition: source?.valuePosition ?? tag.position))
            attribute = current.pointee.next
        }

        var child = node.pointee.children
        var hasText = false
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current, depth: depth + 1))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                hasText = true
            case XML_ENTITY_REF_NODE:
                hasText = true
                _ = entityReference(current, at: tag.position)  // reported even where the text is not kept
            default:
                break
            }
            child = current.pointee.next
        }
        // Character data matters for leaf elements (plist <string>, <key>); between child elements it is only
        // indentation, and copying it would cost more than the rest of the tree.
        if hasText && result.children.isEmpty {
            result.text = text(of: node.pointee.children, at: tag.position)
        }
        if let interestingNode, UnsafeMutableRawPointer(node) == interestingNode { interestingElement = result }
        return result
    }

    /// Attribute values are lists of text and entity-reference nodes; references are kept as written, never
    /// expanded (xmlNodeListGetString with inLine = 1 would expand them).
    private mutating func text(of first: xmlNodePtr?, at position: SourcePosition) -> String {
        // The usual value: one text node.
        if let first, first.pointee.next == nil, first.pointee.type == XML_TEXT_NODE {
            return first.pointee.content.map { String(cString: $0) } ?? ""
        }
        var result = ""
        var node = first
        while let current = node {
            switch current.pointee.type {
            case XML_ENTITY_REF_NODE:
                result += entityReference(current, at: position)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result += String(cString: content) }
            default:
                break  // comments and processing instructions are not text
            }
            node = current.pointee.next
        }
        return result
    }

    private mutating func entityReference(_ node: xmlNodePtr, at position: SourcePosition) -> String {
        let name = String(cString: node.pointee.name)
        if reportedEntities.insert(name).inserted {
            notices.append(
                XMLNotice(
                    kind: .entityNotExpanded(name: name),
                    message: "entity reference &\(name); is left unexpanded: entities are never substituted",
                    position: position))
        }
        return "&\(name);"
    }

    private mutating func startTag(_ node: xmlNodePtr) -> XMLSourceMap.StartTag {
        defer { nextTag += 1 }
        if sourceMapUsable, nextTag < sourceMap.startTags.count,
            sourceMap.name(sourceMap.startTags[nextTag].name, is: node.pointee.name, prefix: node.pointee.ns?.pointee.prefix)
        {
            return sourceMap.startTags[nextTag]
        }
        // Never expected for a well-formed document; degrade to libxml2's line rather than point anywhere wrong.
        sourceMapUsable = false
        return XMLSourceMap.StartTag(
            name: 0..<0, position: SourcePosition(line: max(Int(xmlGetLineNo(node)), 1), column: 1), attributes: 0..<0)
    }
}
