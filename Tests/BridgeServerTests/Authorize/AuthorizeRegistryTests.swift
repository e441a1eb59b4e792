@testable import BridgeServer
import Foundation
import Testing

/// Keeps "a new authorize check or interaction step is one type on its registry" true, as `RuleCatalogTests` does
/// for lint rules: every conforming type in the sources is on its list, once, and every check has a test.
@Suite("Authorize checks and interaction steps are all registered")
struct AuthorizeRegistryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The names of the types declared as `struct Name: <conformance>` anywhere under `Sources/BridgeServer`.
    static func conformers(of conformance: String) throws -> Set<String> {
        let base = root.appendingPathComponent("Sources/BridgeServer")
        let files = (FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "swift" }
        var names = Set<String>()
        let pattern = try NSRegularExpression(pattern: #"struct (\w+): "# + conformance + #"\b"#)
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            let range = NSRange(source.startIndex..., in: source)
            for match in pattern.matches(in: source, range: range) {
                names.insert(String(source[Range(match.range(at: 1), in: source)!]))
            }
        }
        return names
    }

    @Test func everyAuthorizeCheckIsInThePipeline() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: TestBridge.yaml).configuration
        let listed = AuthorizePipeline(configuration: configuration).checks.map { String(describing: type(of: $0)) }
        #expect(Set(listed).count == listed.count, "a check is listed twice")
        #expect(Set(listed) == (try Self.conformers(of: "AuthorizeCheck")))
        // Each check is exercised by name somewhere in the server's tests.
        let testFolder = Self.root.appendingPathComponent("Tests/BridgeServerTests")
        let tests = try (FileManager.default.enumerator(at: testFolder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "swift" && $0.lastPathComponent != "AuthorizeRegistryTests.swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for check in listed { #expect(tests.contains("\(check)("), "no test names \(check)") }
    }

    @Test func everyInteractionStepIsInTheSequence() throws {
        let listed = InteractionSteps.sequence.map { String(describing: type(of: $0)) }
        #expect(Set(listed).count == listed.count, "a step is listed twice")
        #expect(Set(listed) == (try Self.conformers(of: "InteractionStep")))
        // Finishing comes first: a request the store already finished never shows another page.
        #expect(listed.first == "FinishStep")
    }
}
