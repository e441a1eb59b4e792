import CLibXML2

/// A RelaxNG schema compiled once by libxml2 and shared: each validation gets its own validation context, which is
/// what makes sharing safe (docs/protocol-sources.md, libxml2).
public final class RelaxNGSchema: @unchecked Sendable {
    /// A short name used in messages ("AndroidManifest.xml schema").
    public let name: String
    private let compiled: xmlRelaxNGPtr

    /// Compiles a schema in RelaxNG XML syntax. Throws when libxml2 rejects it, with libxml2's messages.
    public init(name: String, text: String) throws(RelaxNGSchemaError) {
        self.name = name
        let capture = LibXML2ErrorCapture()
        var bytes = Array(text.utf8)
        let compiled: xmlRelaxNGPtr? = capture.run {
            bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars -> xmlRelaxNGPtr? in
                    guard let parser = xmlRelaxNGNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else {
                        return nil
                    }
                    defer { xmlRelaxNGFreeParserCtxt(parser) }
                    xmlRelaxNGSetParserStructuredErrors(
                        parser, LibXML2ErrorCapture.structuredHandler, capture.opaqueSelf)
                    return xmlRelaxNGParse(parser)
                }
            }
        }
        // A regular expression that fails to compile is reported but does not stop libxml2: refuse it here.
        guard let compiled, capture.errors.isEmpty, capture.genericMessages.isEmpty else {
            if let compiled { xmlRelaxNGFree(compiled) }
            let messages = capture.errors.map(\.message) + [capture.genericMessages].filter { !$0.isEmpty }
            throw RelaxNGSchemaError(schema: name, messages: messages)
        }
        self.compiled = compiled
    }

    deinit { xmlRelaxNGFree(compiled) }

    /// Validates a document that is alive for the duration of the call; returns libxml2's errors as they came.
    func validate(_ document: xmlDocPtr, capture: LibXML2ErrorCapture) -> [LibXML2Error] {
        guard let context = xmlRelaxNGNewValidCtxt(compiled) else { return [] }
        defer { xmlRelaxNGFreeValidCtxt(context) }
        let before = capture.errors.count
        xmlRelaxNGSetValidStructuredErrors(context, LibXML2ErrorCapture.structuredHandler, capture.opaqueSelf)
        _ = xmlRelaxNGValidateDoc(context, document)
        return Array(capture.errors[before...])
    }
}

/// libxml2 could not compile a schema (a bug in the schema: every shipped schema is compiled by a test).
public struct RelaxNGSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    public var schema: String
    public var messages: [String]
    public var description: String { "\(schema) does not compile: " + messages.joined(separator: "; ") }
}

/// How a document is validated: with a RelaxNG schema, compiled when first needed, optionally behind a check in Swift
/// that accepts valid documents on its own (a document it does not accept goes to RelaxNG, which words the error).
struct SchemaValidation: Sendable {
    let relaxNG: @Sendable () -> RelaxNGSchema
    let quickAccept: (@Sendable (xmlNodePtr) -> Bool)?

    init(relaxNG: @escaping @Sendable () -> RelaxNGSchema, quickAccept: (@Sendable (xmlNodePtr) -> Bool)? = nil) {
        self.relaxNG = relaxNG
        self.quickAccept = quickAccept
    }

    func acceptedWithoutRelaxNG(_ root: xmlNodePtr) -> Bool { quickAccept?(root) ?? false }
}
