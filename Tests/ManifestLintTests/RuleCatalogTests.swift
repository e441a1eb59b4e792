import Foundation
import Testing

@testable import ManifestLint

/// Keeps "adding a rule = one file + its test" true: every rule file is in the catalog, ids are unique and stable
/// in form, every descriptor is complete, and every rule id has a test named after it.
@Suite struct RuleCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftFiles(under folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    @Test func everyRuleFileIsInTheCatalog() throws {
        let catalogTypes = Set(RuleCatalog.checked.map { String(describing: type(of: $0)) })
        let support = ["LintRule.swift", "RuleCatalog.swift", "References.swift"]
        let ruleFiles = Self.swiftFiles(under: "Sources/ManifestLint/Rules").filter { !support.contains($0.lastPathComponent) }
        #expect(ruleFiles.count == catalogTypes.count)
        for file in ruleFiles {
            let typeName = file.deletingPathExtension().lastPathComponent
            let source = try String(contentsOf: file, encoding: .utf8)
            #expect(source.contains("public struct \(typeName):"), "\(file.lastPathComponent) must declare \(typeName)")
            #expect(catalogTypes.contains(typeName), "\(typeName) is not listed in RuleCatalog")
        }
    }

    @Test func idsAreUniqueKebabCaseAndDescriptorsComplete() {
        let ids = RuleCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in RuleCatalog.all {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(rule.id)")
            #expect(!rule.summary.isEmpty && !rule.summary.contains("\n"), "\(rule.id) summary must be one line")
            #expect(!rule.hint.isEmpty && !rule.hint.contains("\n"), "\(rule.id) hint must be one line")
            #expect(rule.reference.url.hasPrefix("https://"), "\(rule.id) needs a reference")
        }
    }

    /// The per-rule tests are named after the id in camel case (`android-exported-missing` → `androidExportedMissing`),
    /// document checks are covered by the reader and golden tests.
    @Test func everyRuleHasItsOwnTest() throws {
        let tests = try Self.swiftFiles(under: "Tests/ManifestLintTests").filter { $0.lastPathComponent.hasSuffix("RuleTests.swift") }
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        let checked = RuleCatalog.android as [any LintRule] + RuleCatalog.infoPlist + RuleCatalog.urlSchemes
            + RuleCatalog.assetLinks + RuleCatalog.appSiteAssociation + RuleCatalog.wellKnownResponse + RuleCatalog.entitlements
        for rule in checked.map(\.descriptor) {
            let parts = rule.id.split(separator: "-")
            let name = parts[0] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            #expect(tests.contains("func \(name)()"), "no test named \(name) for \(rule.id)")
        }
    }
}
