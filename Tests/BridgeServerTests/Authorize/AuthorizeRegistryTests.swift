@testable import BridgeServer
import Foundation
import Testing

/// Keeps "a new authorize check or interaction step is one file, one entry on its registry and its own test" true,
/// as `RuleCatalogTests` does for lint rules: every conforming type in the sources is on its list once, in its own
/// file, with a test named after it, and the order is the one `docs/architecture.md` tells.
@Suite("Authorize checks and interaction steps are all registered")
struct AuthorizeRegistryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func swiftFiles(under folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    /// The names of the types declared as `struct Name: <conformance>` anywhere under `Sources/BridgeServer`.
    static func conformers(of conformance: String) throws -> Set<String> {
        var names = Set<String>()
        let pattern = try NSRegularExpression(pattern: #"struct (\w+): "# + conformance + #"\b"#)
        for file in swiftFiles(under: "Sources/BridgeServer") {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                names.insert(String(source[Range(match.range(at: 1), in: source)!]))
            }
        }
        return names
    }

    static let configuration = try! ConfigurationLoader(environment: [:]).load(yaml: TestBridge.yaml).configuration

    /// Every check of `AuthorizePipeline`, in the order it runs: the two that decide whether the redirect URI is
    /// trusted, the parameter check, then the ordered `AuthorizeCheck`s.
    static var pipelineOrder: [String] {
        let pipeline = AuthorizePipeline(configuration: configuration)
        let beforeTrust: [Any.Type] = [
            type(of: pipeline.checkClient), type(of: pipeline.checkRedirectURI), type(of: pipeline.checkParameters),
        ]
        return beforeTrust.map { String(describing: $0) } + pipeline.checks.map { String(describing: type(of: $0)) }
    }

    static var stepOrder: [String] {
        let service = UpstreamSignInService(providers: UpstreamProviders(configuration: configuration), metrics: BridgeMetrics())
        return InteractionSteps(upstream: service).sequence.map { String(describing: type(of: $0)) }
    }

    /// The backticked names matching `pattern`, in order of first mention, in the architecture page's traced
    /// authorize request.
    static func documentedOrder(_ pattern: String) throws -> [String] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(page.range(of: "## One authorize request, traced"))
        let end = try #require(page.range(of: "\n## ", range: start.upperBound..<page.endIndex))
        let section = String(page[start.upperBound..<end.lowerBound])
        let regex = try NSRegularExpression(pattern: "`(" + pattern + ")`")
        var names: [String] = []
        for match in regex.matches(in: section, range: NSRange(section.startIndex..., in: section)) {
            let name = String(section[Range(match.range(at: 1), in: section)!])
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Every name in `names` has a test function named after it (`CheckScope` → `func checkScope…`).
    static func expectOwnTests(_ names: [String]) throws {
        let tests = try swiftFiles(under: "Tests/BridgeServerTests").map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for name in names {
            let function = name.prefix(1).lowercased() + name.dropFirst()
            #expect(tests.contains("@Test func \(function)"), "no test named \(function)… for \(name)")
        }
    }

    /// Every file in `folder` but `support` declares the type it is named after, and those types are `listed`.
    static func expectOneFileEach(_ listed: [String], folder: String, support: Set<String>) throws {
        let files = swiftFiles(under: folder).filter { !support.contains($0.lastPathComponent) }
        #expect(Set(files.map { $0.deletingPathExtension().lastPathComponent }) == Set(listed))
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let source = try String(contentsOf: file, encoding: .utf8)
            #expect(source.contains("struct \(name):"), "\(file.lastPathComponent) must declare \(name)")
        }
    }

    @Test func everyAuthorizeCheckIsInThePipelineOnceInItsOwnFile() throws {
        let listed = AuthorizePipeline(configuration: Self.configuration).checks.map { String(describing: type(of: $0)) }
        #expect(Set(listed).count == listed.count, "a check is listed twice")
        #expect(Set(listed) == (try Self.conformers(of: "AuthorizeCheck")))
        try Self.expectOneFileEach(
            Self.pipelineOrder, folder: "Sources/BridgeServer/Authorize/Checks", support: ["AuthorizeCheck.swift"])
    }

    @Test func everyAuthorizeCheckHasItsOwnTest() throws {
        try Self.expectOwnTests(Self.pipelineOrder)
    }

    @Test func theChecksRunInTheDocumentedOrder() throws {
        #expect(try Self.documentedOrder(#"Check[A-Z]\w*"#) == Self.pipelineOrder)
    }

    @Test func everyInteractionStepIsInTheSequenceOnceInItsOwnFile() throws {
        let listed = Self.stepOrder
        #expect(Set(listed).count == listed.count, "a step is listed twice")
        #expect(Set(listed) == (try Self.conformers(of: "InteractionStep")))
        try Self.expectOneFileEach(
            listed, folder: "Sources/BridgeServer/Authorize/Steps", support: ["InteractionStep.swift", "InteractionNeed.swift"])
    }

    @Test func everyInteractionStepHasItsOwnTest() throws {
        try Self.expectOwnTests(Self.stepOrder)
    }

    /// Finishing comes first (a request the store already finished never shows another page), a chosen upstream
    /// provider before the host's app and the password form, and consent last.
    @Test func theStepsAreAskedInTheDocumentedOrder() throws {
        #expect(try Self.documentedOrder(#"\w+Step"#) == Self.stepOrder)
        #expect(Self.stepOrder.first == "FinishStep" && Self.stepOrder.last == "ConsentStep")
    }
}
