import CLibXML2
import Foundation
import Testing

@testable import ManifestLint

/// `AndroidManifestStructure` against the schema it writes out: on the corpus, the samples and mutations of them, and
/// every typed attribute with edge-case values, it accepts exactly what libxml2's RelaxNG validation of
/// schemas/android-manifest.rng accepts (and what `xmllint --relaxng` accepts, when xmllint is installed), and the
/// findings of the fast path are the findings of RelaxNG alone.
@Suite struct AndroidManifestStructureTests {
    static let packageRoot = SampleGoldenTests.packageRoot
    static let android = "xmlns:android=\"http://schemas.android.com/apk/res/android\""

    /// Real manifests: the corpus and the samples (one of them breaks the schema; the truncated one, which is not
    /// XML at all, is left out).
    static func realManifests() throws -> [(name: String, text: String)] {
        var found = [(name: String, text: String)]()
        for folder in ["/Tests/ManifestLintTests/Corpus", "/samples/android"] {
            let root = packageRoot + folder
            let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for path in paths.sorted() where path.hasSuffix("AndroidManifest.xml") {
                let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
                if structureAccepts(text) != nil { found.append((folder + "/" + path, text)) }
            }
        }
        return found
    }

    /// Each mutation breaks (or, for the ones marked valid in their name, keeps) one thing the schema says.
    static let mutations: [(name: String, apply: @Sendable (String) -> String)] = [
        ("drop required android:name", { replaceFirst($0, #"<activity android:name=""#, with: #"<activity android:label=""#) }),
        ("unprefixed name", { replaceFirst($0, #"<activity android:name=""#, with: #"<activity name=""#) }),
        ("bad boolean", { replaceFirst($0, #"android:exported="true""#, with: #"android:exported="yes""#) }),
        ("bad boolean false", { replaceFirst($0, #"android:exported="false""#, with: #"android:exported="0""#) }),
        ("boolean resource (valid)", { replaceFirst($0, #"android:exported="true""#, with: #"android:exported="@bool/x""#) }),
        ("wrong parent: activity under manifest", { insertAfterStartTag($0, "manifest", "<activity android:name=\".X\"/>") }),
        ("wrong parent: action under application", { insertAfterStartTag($0, "application", "<action android:name=\"a\"/>") }),
        ("wrong parent: data under activity", { insertAfterStartTag($0, "activity", "<data/>") }),
        ("wrong parent: application under application", { insertAfterStartTag($0, "application", "<application/>") }),
        ("unknown element in intent-filter", { insertAfterStartTag($0, "intent-filter", "<foo/>") }),
        ("unknown element in application (valid)", { insertAfterStartTag($0, "application", "<foo><activity/></foo>") }),
        ("namespaced activity in application (valid)", { insertAfterStartTag($0, "application", "<x:activity xmlns:x=\"urn:x\"/>") }),
        ("namespaced data in intent-filter", { insertAfterStartTag($0, "intent-filter", "<x:data xmlns:x=\"urn:x\"/>") }),
        ("text in intent-filter", { insertAfterStartTag($0, "intent-filter", "hello") }),
        ("text in application", { insertAfterStartTag($0, "application", "hello") }),
        ("comment and whitespace (valid)", { insertAfterStartTag($0, "intent-filter", " <!-- x --> \n\t<?pi x?> ") }),
        ("child of action", { replaceFirst($0, "<action android:name=\"android.intent.action.VIEW\" />", with: "<action android:name=\"android.intent.action.VIEW\"><foo/></action>") }),
        ("text in data", { insertAfterStartTag($0, "intent-filter", "<data>t</data>") }),
        ("child of uses-sdk", { insertAfterStartTag($0, "manifest", "<uses-sdk><foo/></uses-sdk>") }),
        ("empty action name", { insertAfterStartTag($0, "intent-filter", "<action android:name=\"\"/>") }),
        ("category without name", { insertAfterStartTag($0, "intent-filter", "<category/>") }),
        ("alias without targetActivity", { insertAfterStartTag($0, "application", "<activity-alias android:name=\".A\"/>") }),
        ("alias (valid)", { insertAfterStartTag($0, "application", "<activity-alias android:name=\".A\" android:targetActivity=\"B\"/>") }),
        ("bad priority", { $0.replacingOccurrences(of: "<intent-filter>", with: "<intent-filter android:priority=\"high\">") }),
        ("bad autoVerify", { $0.replacingOccurrences(of: "<intent-filter>", with: "<intent-filter android:autoVerify=\"maybe\">") }),
        ("bad port", { insertAfterStartTag($0, "intent-filter", "<data android:port=\"80a\"/>") }),
        ("bad package", { replaceFirst($0, "package=\"", with: "package=\"1") }),
        ("bad versionCode", { $0.replacingOccurrences(of: "<manifest ", with: "<manifest android:versionCode=\"1.0\" ") }),
        ("root in a namespace", { $0.replacingOccurrences(of: "<manifest ", with: "<manifest xmlns=\"urn:x\" ") }),
        ("other root", { _ in "<foo/>" }),
        ("entity reference in a value", { withEntity(replaceFirst($0, #"android:exported="true""#, with: #"android:exported="&yes;""#)) }),
        ("entity reference in content", { withEntity(insertAfterStartTag($0, "intent-filter", "&yes;")) }),
    ]

    /// Values for every attribute the schema types, across the shapes of all of them.
    static let values = [
        "", " ", "0", "1", "+1", "-1", " 12 ", "\n1", "1 2", "1.0", "0x1", "+", "٣", "123456789012345678901234",
        "1234567890123456789012345", "0000000000000000000000000000000001", "true", "false", " true ", "TRUE", "yes",
        "@bool/x", "@android:bool/x", "@*android:bool/x.y", "@*:bool/x", "@bool/", "@integer/x", "@pkg:integer/x_1",
        "@integer/x:y", "${a}", "${}", "${a}b", "${a}\nb", "${a\n}", "${é}", "a", "a.b", "a..b", ".a", "..a", "_a", "a$",
        "$a.b$", "a.", "1a", "é", "VanillaIceCream", "V", "vanilla", "A1", ".signin.AuthActivity", "com.contoso.Auth",
    ]

    /// Where each value goes: `%@` in a minimal manifest.
    static let slots = [
        "<manifest \(android) package=\"%@\"/>",
        "<manifest \(android) android:versionCode=\"%@\"/>",
        "<manifest \(android)><uses-sdk android:minSdkVersion=\"%@\"/></manifest>",
        "<manifest \(android)><uses-sdk android:targetSdkVersion=\"%@\" android:maxSdkVersion=\"34\"/></manifest>",
        "<manifest \(android)><application><activity android:name=\"%@\"/></application></manifest>",
        "<manifest \(android)><application><activity-alias android:name=\"A\" android:targetActivity=\"%@\"/></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\" android:exported=\"%@\"/></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\" android:enabled=\"%@\"/></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\"><intent-filter android:autoVerify=\"%@\"/></activity></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\"><intent-filter android:priority=\"%@\"/></activity></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\"><intent-filter><action android:name=\"%@\"/></intent-filter></activity></application></manifest>",
        "<manifest \(android)><application><activity android:name=\"A\"><intent-filter><data android:port=\"%@\"/></intent-filter></activity></application></manifest>",
    ]

    static func documents() throws -> [(name: String, text: String)] {
        let real = try realManifests()
        var documents = real
        for (base, text) in real {
            for mutation in mutations { documents.append(("\(base) + \(mutation.name)", mutation.apply(text))) }
        }
        for slot in slots {
            for value in values {
                let escaped = value.replacingOccurrences(of: "\n", with: "&#10;")
                documents.append(("\(slot) with \(value.debugDescription)", slot.replacingOccurrences(of: "%@", with: escaped)))
            }
        }
        // A mutation can make a document that is not XML (a second android:versionCode): nothing to validate.
        return documents.filter { structureAccepts($0.text) != nil }
    }

    @Test func acceptsExactlyWhatLibxml2RelaxNGAccepts() throws {
        let documents = try Self.documents()
        var accepted = 0
        for (name, text) in documents {
            let relaxNG = try XMLReader().read(Array(text.utf8), schema: ManifestSchemas.androidManifest)
            let structure = try #require(Self.structureAccepts(text) as Bool?, "\(name) does not parse")
            if relaxNG.schemaViolations.isEmpty { accepted += 1 }
            // Entity references are left to RelaxNG ("not accepted" there only costs time), so with one the check
            // may refuse what RelaxNG accepts, never the other way round.
            if text.contains("&yes;") {
                #expect(!structure || relaxNG.schemaViolations.isEmpty, "\(name)")
            } else {
                #expect(structure == relaxNG.schemaViolations.isEmpty, "\(name): structure \(structure), RelaxNG \(relaxNG.schemaViolations)")
            }
        }
        // Both verdicts occur often: the comparison is not one-sided.
        #expect(accepted > 100 && documents.count - accepted > 300, "\(accepted) of \(documents.count) accepted")
    }

    /// The findings through the fast path (what FileLinter reads with) equal RelaxNG's own, violations included.
    @Test func findingsAreRelaxNGsFindings() throws {
        for (name, text) in try Self.documents() {
            let fast = try XMLReader().read(Array(text.utf8), validation: ManifestSchemas.androidManifestValidation)
            let relaxNG = try XMLReader().read(Array(text.utf8), schema: ManifestSchemas.androidManifest)
            #expect(fast == relaxNG, "\(name)")
        }
    }

    /// The same verdicts as `xmllint --noout --relaxng schemas/android-manifest.rng` (libxml2-utils).
    @Test(.enabled(if: Self.xmllint != nil)) func acceptsExactlyWhatXmllintAccepts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("structure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let documents = try Self.documents().filter { !$0.text.contains("&yes;") }
        var paths = [String]()
        for (index, document) in documents.enumerated() {
            let path = directory.appendingPathComponent("\(index).xml").path
            try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.xmllint))
        process.arguments = ["--noout", "--nonet", "--relaxng", Self.packageRoot + "/schemas/android-manifest.rng"] + paths
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let validated = Set(output.split(separator: "\n").compactMap { line in
            line.hasSuffix(" validates") ? String(line.dropLast(" validates".count)) : nil
        })
        for (path, document) in zip(paths, documents) {
            let structure = try #require(Self.structureAccepts(document.text) as Bool?)
            #expect(structure == validated.contains(path), "\(document.name)")
        }
    }

    static let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Parses as XMLReader does and asks the structure check alone; nil when the text is not well-formed.
    static func structureAccepts(_ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        let capture = LibXML2ErrorCapture()
        return capture.run {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars -> Bool? in
                    guard let document = xmlReadMemory(chars.baseAddress, Int32(chars.count), "document", nil, XMLReader.blankTextOptions)
                    else { return nil }
                    defer { xmlFreeDoc(document) }
                    guard let root = xmlDocGetRootElement(document) else { return nil }
                    return AndroidManifestStructure.accepts(root)
                }
            }
        }
    }

    /// Declares `&yes;` in an internal DTD subset, after the XML declaration if there is one.
    static func withEntity(_ text: String) -> String {
        let declaration = "<!DOCTYPE manifest [<!ENTITY yes \"true\">]>\n"
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return declaration + text }
        return text.replacingCharacters(in: end.upperBound..<end.upperBound, with: "\n" + declaration)
    }

    static func replaceFirst(_ text: String, _ target: String, with replacement: String) -> String {
        guard let range = text.range(of: target) else { return text }
        return text.replacingCharacters(in: range, with: replacement)
    }

    /// Inserts `content` just after the first start tag `<name …>` (not after a self-closing one).
    static func insertAfterStartTag(_ text: String, _ name: String, _ content: String) -> String {
        var searchFrom = text.startIndex
        while let open = text.range(of: "<\(name)", range: searchFrom..<text.endIndex) {
            guard let close = text.range(of: ">", range: open.upperBound..<text.endIndex) else { break }
            let next = text[open.upperBound]
            if (next == " " || next == ">" || next == "\n" || next == "\t" || next == "\r") && text[text.index(before: close.lowerBound)] != "/" {
                return text.replacingCharacters(in: close.upperBound..<close.upperBound, with: content)
            }
            searchFrom = close.upperBound
        }
        return text
    }
}
