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

    /// docs/conformance.md is what a host engineer reads when a check fails: one row per registered check with its
    /// level, its source's link and the fixture switch that breaks it, and no row for a check that is gone.
    @Test func theDocsListEveryCheckWithItsSourceAndBrokenVariant() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/conformance.md"), encoding: .utf8)
        let fixture = try String(contentsOf: root.appendingPathComponent("scripts/test/conform/fixture_host.py"), encoding: .utf8)
        var rows = [String: String]()
        let levels = Set(CheckLevel.allCases.map(\.rawValue))
        // The check tables' rows: an id, then a level (other tables, such as the third-party findings, are not these).
        for line in docs.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 1, levels.contains(cells[1]) else { continue }
            let id = line.dropFirst(3).prefix { $0 != "`" }
            #expect(rows[String(id)] == nil, "\(id) has two rows")
            rows[String(id)] = String(line)
        }
        for check in CheckRegistry.descriptors {
            guard let row = rows[check.id] else {
                Issue.record("\(check.id) missing from docs/conformance.md")
                continue
            }
            #expect(row.hasPrefix("| `\(check.id)` | \(check.level.rawValue) |"), "\(check.id): level")
            #expect(row.contains("](\(check.source.url))"), "\(check.id): the source link is not \(check.source.url)")
            let switches = row.components(separatedBy: "`--break ").dropFirst().map { $0.prefix { $0 != "`" } }
            #expect(!switches.isEmpty, "\(check.id): no broken variant")
            for name in switches {
                #expect(fixture.contains("    \"\(name)\": "), "\(check.id): fixture_host.py has no switch \(name)")
            }
        }
        #expect(Set(rows.keys) == Set(CheckRegistry.descriptors.map(\.id)), "rows for checks that are not registered")
    }

    @Test func aFailedShouldIsAWarningAndAFailedMustAFailure() {
        let must = CheckRegistry.descriptors.first { $0.level == .must }!
        let should = CheckRegistry.descriptors.first { $0.level == .should }!
        #expect(CheckResult(check: must, outcome: .fail("x"), durationSeconds: 0).status == .fail)
        #expect(CheckResult(check: should, outcome: .fail("x"), durationSeconds: 0).status == .warn)
        #expect(CheckResult(check: must, outcome: .skip("x"), durationSeconds: 0).status == .skip)
    }
}
