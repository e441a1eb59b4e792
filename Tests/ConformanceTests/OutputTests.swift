import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import Conformance

@Suite struct OutputTests {
    static let report: ConformanceReport = {
        let checks = CheckRegistry.descriptors
        return ConformanceReport(
            target: "https://files.example/wopibootstrapper", startedAt: Date(timeIntervalSince1970: 0),
            results: [
                CheckResult(check: checks[0], outcome: .pass("401 with 1 line"), durationSeconds: 0.01),
                CheckResult(check: checks[1], outcome: .fail("two <Bearer> & more"), durationSeconds: 0.02),
                CheckResult(check: checks.first { $0.level == .should }!, outcome: .fail("unquoted"), durationSeconds: 0),
                CheckResult(check: checks.first { $0.id == "metadata.consistent" }!, outcome: .skip("no metadata"), durationSeconds: 0),
            ],
            exchanges: [
                RecordedExchange(
                    party: .browser, method: "GET", url: SecretMask.maskURL("https://files.example/authorize?state=s"),
                    status: 302, location: SecretMask.maskURL("https://localhost?code=secretcode123"), checkID: "authorize.sign-in")
            ])
    }()

    @Test func textIsOneLinePerCheckThenTheCounts() {
        let lines = TextOutput.render(Self.report).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0] == "PASS challenge.status-401: 401 with 1 line")
        #expect(lines[1].hasPrefix("FAIL challenge.single-bearer: "))
        #expect(lines[2].hasPrefix("WARN "))
        #expect(lines[3].hasPrefix("SKIP metadata.consistent: "))
        #expect(lines[4] == "1 passed, 1 failed, 1 warned, 1 skipped")
        #expect(!Self.report.passed)
    }

    @Test func jsonCarriesCountsResultsAndExchanges() throws {
        let object = try JSONSerialization.jsonObject(with: Data(try JSONOutput.render(Self.report).utf8)) as! [String: Any]
        #expect(object["passed"] as? Bool == false)
        #expect((object["counts"] as? [String: Int])?["fail"] == 1)
        #expect((object["results"] as? [Any])?.count == 4)
        #expect((object["exchanges"] as? [Any])?.count == 1)
    }

    @Test func junitIsWellFormedAndCountsFailuresAndSkips() throws {
        let xml = JUnitOutput.render(Self.report)
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(xml.contains(#"<testsuites name="signin-bridge conform" tests="4" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains("two &lt;Bearer&gt; &amp; more"))
    }

    @Test func htmlIsSelfContainedWithADiagramAndMaskedSecrets() {
        let html = HTMLReport.render(Self.report)
        #expect(html.contains("<svg"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("secretcode123"))
        #expect(html.contains("code=secr…(13)"))
    }
}
