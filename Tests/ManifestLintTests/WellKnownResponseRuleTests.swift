import Testing

@testable import ManifestLint

/// One test per rule about how a host served its association file (`lint --fetch`), on answers built by hand; the
/// fetch itself over TLS is tested in LintCommandLineTests.
@Suite struct WellKnownResponseRuleTests {
    static let assetLinksURL = "https://files.example.com/.well-known/assetlinks.json"
    static let aasaURL = "https://files.example.com/.well-known/apple-app-site-association"

    static func answer(
        _ status: Int, contentType: String? = "application/json", location: String? = nil, body: String = "[]",
        kind: FileKind = .assetLinks, truncated: Bool = false
    ) -> WellKnownResponse {
        WellKnownResponse(
            url: kind == .assetLinks ? assetLinksURL : aasaURL, host: "files.example.com", kind: kind,
            outcome: .answered(status: status, contentType: contentType, location: location, body: Array(body.utf8), truncated: truncated))
    }

    static func run(_ rule: some WellKnownResponseRule, _ response: WellKnownResponse) -> [String] {
        rule.check(response, context: LintContext()).map { "\($0.severity) \($0.message)" }
    }

    @Test func wellKnownUnreachable() {
        let failed = WellKnownResponse(url: Self.assetLinksURL, host: "files.example.com", kind: .assetLinks, outcome: .failed(reason: "TLS: handshake failed"))
        #expect(Self.run(WellKnownFileUnreachable(), failed) == ["error GET \(Self.assetLinksURL) failed: TLS: handshake failed"])
        #expect(Self.run(WellKnownFileUnreachable(), Self.answer(200)).isEmpty)
    }

    @Test func wellKnownRedirected() {
        let moved = Self.answer(301, location: "https://www.example.com/.well-known/assetlinks.json")
        #expect(
            Self.run(WellKnownFileRedirected(), moved) == [
                "error GET \(Self.assetLinksURL) answered 301 to https://www.example.com/.well-known/assetlinks.json; the platform stops there"
            ])
        #expect(Self.run(WellKnownFileRedirected(), Self.answer(308)).count == 1)
        #expect(Self.run(WellKnownFileRedirected(), Self.answer(200)).isEmpty)
        #expect(Self.run(WellKnownFileRedirected(), Self.answer(404)).isEmpty)
    }

    @Test func wellKnownStatus() {
        #expect(Self.run(WellKnownFileStatus(), Self.answer(200)).isEmpty)
        #expect(Self.run(WellKnownFileStatus(), Self.answer(302)).isEmpty, "redirects are well-known-redirected's")
        #expect(Self.run(WellKnownFileStatus(), Self.answer(404)) == ["info GET \(Self.assetLinksURL) answered 404: this host serves no assetlinks.json"])
        #expect(
            Self.run(WellKnownFileStatus(), Self.answer(403))
                == ["error GET \(Self.assetLinksURL) answered 403; the platform reads the file only from a 200"])
    }

    @Test func wellKnownContentType() {
        #expect(Self.run(WellKnownFileContentType(), Self.answer(200)).isEmpty)
        #expect(Self.run(WellKnownFileContentType(), Self.answer(200, contentType: "Application/JSON; charset=utf-8")).isEmpty)
        #expect(
            Self.run(WellKnownFileContentType(), Self.answer(200, contentType: "text/html"))
                == ["error \(Self.assetLinksURL) is served as text/html, not application/json"])
        #expect(
            Self.run(WellKnownFileContentType(), Self.answer(200, contentType: nil, kind: .appSiteAssociation))
                == ["warning \(Self.aasaURL) is served without a Content-Type, not application/json"])
        #expect(Self.run(WellKnownFileContentType(), Self.answer(404, contentType: "text/html")).isEmpty, "only a served file has a type that matters")
    }

    @Test func wellKnownServed() {
        #expect(Self.run(WellKnownFileServed(), Self.answer(200, body: "[]")) == ["info GET \(Self.assetLinksURL): 200, application/json, 2 bytes"])
        let large = Self.answer(200, body: String(repeating: " ", count: 11), kind: .appSiteAssociation, truncated: true)
        #expect(Self.run(WellKnownFileServed(), large) == ["info GET \(Self.aasaURL): 200, application/json, more than 10 bytes"])
        #expect(Self.run(WellKnownFileServed(), Self.answer(404)).isEmpty)
    }

    /// A fetched 200 is then linted like a file, and its host counts for the cross-checks.
    @Test func servedFilesAreLintedLikeFilesAndTooLargeIsReported() throws {
        let tooLarge = [UInt8](repeating: UInt8(ascii: " "), count: WellKnownResponse.readLimit(of: .appSiteAssociation))
        var options = LintOptions()
        options.fetched = [
            Self.answer(200, body: "{}"),
            WellKnownResponse(
                url: Self.aasaURL, host: "files.example.com", kind: .appSiteAssociation,
                outcome: .answered(status: 200, contentType: "application/json", location: nil, body: tooLarge, truncated: true)),
        ]
        let report = try Linter(options: options).lint(paths: [])
        #expect(report.files.map(\.path) == [Self.assetLinksURL, Self.aasaURL])
        let rules = report.findings.map { "\($0.file) \($0.ruleID)" }
        #expect(rules.contains("\(Self.assetLinksURL) assetlinks-shape"))
        #expect(rules.contains { $0.hasPrefix(Self.aasaURL) && !$0.hasSuffix("well-known-served") && !$0.hasSuffix("well-known-content-type") })
    }
}
