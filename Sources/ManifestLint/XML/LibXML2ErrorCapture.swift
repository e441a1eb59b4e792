import CLibXML2

/// One error as libxml2 reported it, copied out of libxml2's memory at once.
struct LibXML2Error {
    var domain: Int
    var code: Int
    /// XML_ERR_WARNING (1), XML_ERR_ERROR (2) or XML_ERR_FATAL (3).
    var level: Int
    var message: String
    /// The document name the error belongs to; nil inside an entity's replacement text.
    var file: String?
    var line: Int
    /// libxml2's column (`int2`); 0 when unknown, as for every schema error.
    var column: Int
    var str1: String?
    var int1: Int
    /// The node a validation error is about, as an opaque address (only compared, never dereferenced later).
    var node: UnsafeMutableRawPointer?
}

/// Collects every message libxml2 produces on this thread while a `LibXML2ErrorCapture.run` is active, so that
/// libxml2 never prints to stderr itself. `xmlSetStructuredErrorFunc` is per thread (docs/protocol-sources.md, libxml2), so the
/// handlers are installed and put back within one synchronous call.
final class LibXML2ErrorCapture {
    private(set) var errors: [LibXML2Error] = []
    private(set) var genericMessages = ""
    private(set) var refusedResources: [String] = []

    /// Runs `body` with this capture installed as the thread's structured and generic error handler.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        LibXML2Runtime.prepare()
        let saved = cxml_current_error_handlers()
        let context = Unmanaged.passUnretained(self).toOpaque()
        var forwarder = cxml_generic_forwarder(sink: forwardGenericMessage, context: context)
        return try withUnsafeMutablePointer(to: &forwarder) { forwarderPointer in
            xmlSetStructuredErrorFunc(context, recordStructuredError)
            cxml_install_generic_forwarder(forwarderPointer)
            defer {
                cxml_restore_error_handlers(saved)
                // libxml2 keeps a copy of the last error per thread; drop it so nothing of this parse lingers.
                xmlResetLastError()
            }
            return try withExtendedLifetime(self) { try body() }
        }
    }

    /// The structured-error callback to give libxml2's per-context setters (RelaxNG parser and validator).
    static var structuredHandler: xmlStructuredErrorFunc { recordStructuredError }

    var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate func record(_ error: xmlError) {
        errors.append(
            LibXML2Error(
                domain: Int(error.domain), code: Int(error.code), level: Int(error.level.rawValue),
                message: error.message.map { String(cString: $0) }?.trimmingTrailingWhitespace() ?? "",
                file: error.file.map { String(cString: $0) }, line: Int(error.line), column: Int(error.int2),
                str1: error.str1.map { String(cString: $0) }, int1: Int(error.int1),
                node: error.node))
    }

    fileprivate func recordGeneric(_ text: String) { genericMessages += text }

    fileprivate func recordRefused(_ uri: String) { refusedResources.append(uri) }

    /// The capture active on this thread, if any: how the entity loader knows a parse is ours.
    static func activeOnThisThread() -> LibXML2ErrorCapture? {
        guard cxml_thread_structured_handler_is(recordStructuredError) != 0 else { return nil }
        guard let context = cxml_current_error_handlers().structuredContext else { return nil }
        return Unmanaged<LibXML2ErrorCapture>.fromOpaque(context).takeUnretainedValue()
    }
}

private func recordStructuredError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    Unmanaged<LibXML2ErrorCapture>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
}

private func forwardGenericMessage(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?) {
    guard let context, let text else { return }
    Unmanaged<LibXML2ErrorCapture>.fromOpaque(context).takeUnretainedValue().recordGeneric(String(cString: text))
}

/// Process-wide libxml2 set-up, done once.
enum LibXML2Runtime {
    /// The loader that was in place before ours, used for libxml2 users in this process that are not ManifestLint.
    nonisolated(unsafe) private static var previousLoader: xmlExternalEntityLoader?

    private static let once: Void = {
        xmlInitParser()
        previousLoader = xmlGetExternalEntityLoader()
        // XML_PARSE_NONET does not stop file:// (docs/protocol-sources.md, libxml2): refuse every external entity and DTD of our parses.
        xmlSetExternalEntityLoader(refuseExternalResource)
    }()

    static func prepare() { _ = once }

    fileprivate static func delegate(
        _ url: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ context: xmlParserCtxtPtr?
    ) -> xmlParserInputPtr? {
        previousLoader?(url, id, context)
    }
}

private func refuseExternalResource(
    _ url: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ context: xmlParserCtxtPtr?
) -> xmlParserInputPtr? {
    guard let capture = LibXML2ErrorCapture.activeOnThisThread() else {
        return LibXML2Runtime.delegate(url, id, context)
    }
    capture.recordRefused(url.map { String(cString: $0) } ?? id.map { String(cString: $0) } ?? "")
    return nil
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last == "\n" || last == " " || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
