import CLibXML2
import Foundation
import Testing

@testable import ManifestLint

@Suite struct XMLReaderTests {
    let reader = XMLReader()

    @Test func keepsExactPositionsOfElementsAndAttributes() throws {
        let text = """
            <?xml version="1.0"?>
            <!-- a <fake attr="x"> in a comment -->
            <manifest xmlns:android="http://schemas.android.com/apk/res/android"
                package="com.contoso">
              <application><![CDATA[ <notATag> ]]>
                <activity
                    android:name=".Auth"\tandroid:exported='true'/>
              </application>
            </manifest>
            """
        let document = try reader.read(Array(text.utf8))
        #expect(document.root.name == "manifest")
        #expect(document.root.position == SourcePosition(line: 3, column: 1))
        #expect(document.root.attribute("package")?.position == SourcePosition(line: 4, column: 5))
        #expect(document.root.attribute("package")?.valuePosition == SourcePosition(line: 4, column: 14))
        let activity = try #require(document.root.children.first?.children.first)
        #expect(activity.position == SourcePosition(line: 6, column: 5))
        let exported = try #require(activity.attribute("exported", namespace: AndroidNamespace.uri))
        #expect(exported.value == "true")
        #expect(exported.prefix == "android")
        #expect(exported.position == SourcePosition(line: 7, column: 30))
        #expect(exported.valuePosition == SourcePosition(line: 7, column: 48))
        // Text between child elements is indentation and is not kept; leaf text is (see the next test).
        #expect(document.root.children.first?.text == "")
    }

    @Test func countsColumnsInCodePointsAndLinesAfterCarriageReturns() throws {
        let text = "<a>\r\n<b é=\"ü\" x=\"1\"/>\r<c/></a>"
        let document = try reader.read(Array(text.utf8))
        let b = document.root.children[0]
        #expect(b.position == SourcePosition(line: 2, column: 1))
        #expect(b.attribute("x")?.position == SourcePosition(line: 2, column: 10))
        #expect(document.root.children[1].position == SourcePosition(line: 3, column: 1))
        let bom = try reader.read([0xEF, 0xBB, 0xBF] + Array("<a\n é=\"1\" b=\"2\"/>".utf8))
        #expect(bom.root.position == SourcePosition(line: 1, column: 1))
        #expect(bom.root.attribute("b")?.valuePosition == SourcePosition(line: 2, column: 11))
        let leaf = try reader.read(Array("<a><b><![CDATA[<x>]]> &amp; y<!-- not text --></b></a>".utf8))
        #expect(leaf.root.children[0].text == "<x> & y")
    }

    /// XXE: the payload is real (the control parse below, plain libxml2 with XML_PARSE_NOENT, does read the file),
    /// and our reader neither reads it nor lets it reach the tree.
    @Test func doesNotExpandAnExternalEntityPointingAtALocalFile() throws {
        let secret = "xxe-secret-\(UUID().uuidString)"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("xxe-\(UUID().uuidString).txt")
        try secret.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let payload = """
            <?xml version="1.0"?>
            <!DOCTYPE manifest [ <!ENTITY xxe SYSTEM "\(file.absoluteString)"> ]>
            <manifest package="com.contoso"><application>&xxe;</application></manifest>
            """

        #expect(Self.parseWithLibXML2Defaults(payload, options: XML_PARSE_NOENT).contains(secret))

        let document = try reader.read(Array(payload.utf8))
        let everything = document.root.text + document.root.children.map(\.text).joined()
        #expect(!everything.contains(secret))
        #expect(document.root.children.first?.text == "&xxe;")
        #expect(document.notices.contains { $0.kind == .entityNotExpanded(name: "xxe") })
    }

    @Test func refusesAnExternalDTD() throws {
        let payload = """
            <?xml version="1.0"?>
            <!DOCTYPE plist SYSTEM "file:///etc/passwd">
            <plist version="1.0"><dict/></plist>
            """
        let document = try reader.read(Array(payload.utf8), schema: ManifestSchemas.propertyList)
        #expect(document.root.name == "plist")
        #expect(document.schemaViolations.isEmpty)
    }

    /// Nine levels of ten references each would be 3 GB of "lol"; the reader must refuse it at once.
    @Test func refusesBillionLaughsInBoundedMemory() throws {
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            let previous = "&lol\(level - 1);"
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        let payload = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n\(declarations)]>\n<lolz>&lol9;</lolz>\n"
        let peakBefore = Self.peakResidentBytes()
        #expect {
            try reader.read(Array(payload.utf8))
        } throws: { error in
            guard let error = error as? XMLReadError, case .notWellFormed = error.reason else { return false }
            return error.message.contains("billion laughs") && error.position.line == 14
        }
        // Expansion would need gigabytes; allow the test process's normal noise.
        #expect(Self.peakResidentBytes() - peakBefore < 64 * 1024 * 1024)
    }

    @Test func aTruncatedDocumentGivesOneClearErrorWithItsLine() throws {
        let text = """
            <?xml version="1.0"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.contoso">
              <application>
                <activity android:name=".Auth">
            """
        #expect {
            try reader.read(Array(text.utf8))
        } throws: { error in
            guard let error = error as? XMLReadError else { return false }
            return error.message == "the document ends before <activity> (opened on line 4) is closed"
                && error.position.line == 4
        }
    }

    @Test func refusesFilesOverTheByteLimitBeforeParsing() {
        let small = XMLReader(limits: XMLParseLimits(maxBytes: 16))
        #expect(throws: XMLReadError.self) { try small.read(Array("<a>0123456789abcdef</a>".utf8)) }
        #expect(XMLParseLimits.default.maxBytes == 4 * 1024 * 1024)
    }

    @Test func refusesNestingBeyondTheDepthLimit() {
        let shallow = XMLReader(limits: XMLParseLimits(maxDepth: 3))
        #expect(throws: Never.self) { try shallow.read(Array("<a><b><c/></b></a>".utf8)) }
        #expect {
            try shallow.read(Array("<a>\n<b>\n<c>\n  <d/></c></b></a>".utf8))
        } throws: { error in
            (error as? XMLReadError)?.reason == .tooDeep(limit: 3)
                && (error as? XMLReadError)?.position == SourcePosition(line: 4, column: 3)
        }
    }

    @Test func refusesABinaryPropertyList() {
        #expect { try reader.read(Array("bplist00\u{1}\u{2}".utf8)) } throws: {
            ($0 as? XMLReadError)?.reason == .binaryPropertyList
        }
    }

    /// libxml2 would print "parser error" and "validity error" lines on stderr with its default handlers.
    @Test func libxml2PrintsNothingItself() throws {
        let output = try Self.capturingStandardError {
            _ = try? reader.read(Array("<a><b></a>".utf8))
            _ = try? reader.read(Array("<plist><dict><string/></dict></plist>".utf8), schema: ManifestSchemas.propertyList)
            _ = try? RelaxNGSchema(name: "broken", text: "<grammar xmlns='http://relaxng.org/ns/structure/1.0'><start><data type='string'><param name='pattern'>\\$</param></data></start></grammar>")
        }
        #expect(!output.contains("error"), "libxml2 wrote to stderr: \(output)")
    }

    @Test func reportsOneUsefulSchemaErrorAtTheOffendingAttribute() throws {
        let text = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.contoso">
              <application>
                <activity android:name=".Auth" android:exported="yes"/>
              </application>
            </manifest>
            """
        let document = try reader.read(Array(text.utf8), schema: ManifestSchemas.androidManifest)
        #expect(
            document.schemaViolations == [
                XMLSchemaViolation(
                    message: "<activity> attribute android:exported has an invalid value \"yes\"",
                    position: SourcePosition(line: 3, column: 54))
            ])
    }

    @Test func theShippedSchemasCompile() {
        #expect(ManifestSchemas.androidManifest.name.contains("AndroidManifest"))
        #expect(ManifestSchemas.propertyList.name.contains("property list"))
    }

    // MARK: Helpers

    static func parseWithLibXML2Defaults(_ text: String, options: xmlParserOption) -> String {
        var bytes = Array(text.utf8)
        let document = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlReadMemory($0.baseAddress, Int32($0.count), nil, nil, Int32(options.rawValue))
            }
        }
        guard let document else { return "" }
        defer { xmlFreeDoc(document) }
        guard let content = xmlNodeGetContent(xmlDocGetRootElement(document)) else { return "" }
        defer { cxml_free(content) }
        return String(cString: content)
    }

    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    static func capturingStandardError(_ body: () throws -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let saved = dup(2)
        dup2(handle.fileDescriptor, 2)
        defer {
            dup2(saved, 2)
            close(saved)
            try? handle.close()
        }
        try body()
        fflush(nil)
        // FileHandle rather than String(contentsOf:) or FileManager.contents: those leak a 4 KiB buffer for an
        // empty file (LeakSanitizer, swift-foundation 6.3), which would spoil scripts/test/leaks.sh's report.
        let reader = try FileHandle(forReadingFrom: file)
        defer { try? reader.close() }
        return String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    }
}
