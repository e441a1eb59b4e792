import Foundation
import Testing

@testable import Conformance

@Suite struct CheckRegistryTests {
    @Test func idsAreUniqueAndStartWithTheirGroup() {
        let ids = CheckRegistry.descriptors.map(\.id)
        #expect(Set(ids).count == ids.count)
        for check in CheckRegistry.descriptors {
            #expect(check.id.hasPrefix(check.group.rawValue + "."), "\(check.id)")
        }
    }

    @Test func everyGroupHasAChecksAndEveryCheckAPublicSource() {
        for group in CheckGroup.allCases {
            #expect(CheckRegistry.descriptors.contains { $0.group == group }, "\(group)")
        }
        for check in CheckRegistry.descriptors {
            #expect(check.source.url.hasPrefix("https://"), "\(check.id)")
            #expect(!check.summary.isEmpty)
        }
    }

    /// docs/conformance.md is what a host engineer reads when a check fails: it must list every id.
    @Test func theDocsListEveryCheck() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/conformance.md"), encoding: .utf8)
        for check in CheckRegistry.descriptors {
            #expect(docs.contains("| `\(check.id)` | \(check.level.rawValue) |"), "\(check.id) missing from docs/conformance.md")
        }
    }

    @Test func aFailedShouldIsAWarningAndAFailedMustAFailure() {
        let must = CheckRegistry.descriptors.first { $0.level == .must }!
        let should = CheckRegistry.descriptors.first { $0.level == .should }!
        #expect(CheckResult(check: must, outcome: .fail("x"), durationSeconds: 0).status == .fail)
        #expect(CheckResult(check: should, outcome: .fail("x"), durationSeconds: 0).status == .warn)
        #expect(CheckResult(check: must, outcome: .skip("x"), durationSeconds: 0).status == .skip)
    }
}
