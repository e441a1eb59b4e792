import Foundation
import HTTPTypes
import LintCommandLine
import LintFetch
import ManifestLint
import Testing

/// `lint --fetch` against a local TLS host: what is fetched, how each platform rule about serving the files shows up,
/// and that the fetched files take part in the manifest and entitlements cross-checks.
@Suite struct WellKnownFetchTests {
    static let package = "com.contoso.files"
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let assetLinks = """
        [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", \
        "package_name": "\(package)", "sha256_cert_fingerprints": ["\(fingerprint)"]}}]
        """
    static let aasa = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.contoso.files"], "components": [{"/": "/signin/*"}]}]}}
        """

    let authority: TestCertificateAuthority
    let folder: URL

    init() throws {
        authority = try TestCertificateAuthority()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func fetch(_ host: AssociationHost, trustCA: Bool = true) async throws -> (origin: String, responses: [WellKnownResponse]) {
        let caFile = trustCA ? try authority.writeCA(to: folder) : nil
        return try await host.serve(with: authority) { origin in
            // Only a hang may run into this bound: on a saturated machine a TLS handshake to the test host takes seconds.
            let fetcher = WellKnownFetcher(additionalRootsFile: caFile, timeout: .seconds(120))
            return (origin, try await fetcher.fetch(origins: [try WellKnownOrigin(origin)]))
        }
    }

    static func findings(_ responses: [WellKnownResponse], paths: [String] = [], configure: (inout LintOptions) -> Void = { _ in }) throws -> [String] {
        var options = LintOptions()
        options.fetched = responses
        configure(&options)
        return try Linter(options: options).lint(paths: paths).findings.map { "\($0.ruleID) \($0.severity)" }
    }

    @Test func bothFilesServedWellAreFetchedAndPass() async throws {
        let host = AssociationHost(answers: [
            "assetlinks.json": .init(body: Self.assetLinks),
            "apple-app-site-association": .init(body: Self.aasa),
        ])
        let (origin, responses) = try await fetch(host)
        #expect(responses.map(\.url) == ["\(origin)/.well-known/assetlinks.json", "\(origin)/.well-known/apple-app-site-association"])
        #expect(responses.allSatisfy { $0.host == "127.0.0.1" && $0.servedBody != nil })
        #expect(try Self.findings(responses) == ["well-known-served info", "well-known-served info"])
    }

    @Test func redirectsAreReportedNotFollowed() async throws {
        var moved = AssociationHost.Answer(status: .movedPermanently, body: "")
        moved.headers[.location] = "https://www.example.com/.well-known/assetlinks.json"
        let (_, responses) = try await fetch(AssociationHost(answers: ["assetlinks.json": moved]))
        guard case .answered(301, _, let location, _, _) = responses[0].outcome else {
            Issue.record("expected the 301 itself, got \(responses[0].outcome)")
            return
        }
        #expect(location == "https://www.example.com/.well-known/assetlinks.json")
        let findings = try Self.findings(responses)
        #expect(findings.contains("well-known-redirected error"))
        #expect(findings.contains("well-known-status info"), "the missing apple-app-site-association is a 404")
    }

    @Test func wrongContentTypeAndTooLargeFilesAreFindings() async throws {
        let tooLarge = "{\"applinks\": {\"details\": []}, \"pad\": \"\(String(repeating: "x", count: 130 * 1024))\"}"
        let host = AssociationHost(answers: [
            "assetlinks.json": .init(headers: [.contentType: "text/plain"], body: Self.assetLinks),
            "apple-app-site-association": .init(body: tooLarge),
        ])
        let (_, responses) = try await fetch(host)
        guard case .answered(200, _, _, let body, let truncated) = responses[1].outcome else {
            Issue.record("expected a 200 for the large file")
            return
        }
        #expect(truncated && body.count == WellKnownResponse.readLimit(of: .appSiteAssociation), "reading stops past the limit")
        let findings = try Self.findings(responses)
        #expect(findings.contains("well-known-content-type error"))
        #expect(findings.contains("aasa-json-syntax error"), "\(findings)")
    }

    @Test func anUntrustedCertificateIsAFindingNotACrash() async throws {
        let (_, responses) = try await fetch(AssociationHost(answers: ["assetlinks.json": .init(body: Self.assetLinks)]), trustCA: false)
        #expect(responses.count == 2)
        for response in responses {
            guard case .failed(let reason) = response.outcome else {
                Issue.record("an unverified certificate must not be read: \(response.outcome)")
                continue
            }
            #expect(reason.hasPrefix("TLS: ") && reason.contains("certificate"), "\(reason)")
        }
        #expect(try Self.findings(responses) == ["well-known-unreachable error", "well-known-unreachable error"])
    }

    /// The fetched assetlinks.json stands for the host in the manifest's App Links check, like `--assetlinks` does.
    @Test func fetchedFilesTakePartInTheManifestCrossCheck() async throws {
        let (_, responses) = try await fetch(AssociationHost(answers: ["assetlinks.json": .init(body: Self.assetLinks)]))
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        try Data(Self.manifest(package: Self.package).utf8).write(to: manifest)
        #expect(try !Self.findings(responses, paths: [manifest.path]).contains { $0.hasPrefix("android-applinks-host-unverified") })
        try Data(Self.manifest(package: "com.other.app").utf8).write(to: manifest)
        #expect(try Self.findings(responses, paths: [manifest.path]).contains { $0.hasPrefix("android-applinks-host-unverified") })
    }

    static func manifest(package: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)">
          <application>
            <activity android:name=".LinkActivity" android:exported="true">
              <intent-filter android:autoVerify="true">
                <action android:name="android.intent.action.VIEW"/>
                <category android:name="android.intent.category.DEFAULT"/>
                <category android:name="android.intent.category.BROWSABLE"/>
                <data android:scheme="https" android:host="127.0.0.1" android:pathPrefix="/signin"/>
              </intent-filter>
            </activity>
          </application>
        </manifest>
        """
    }

    @Test func originsAreHttpsHostsOnly() throws {
        let bare = try WellKnownOrigin("files.example.com")
        #expect((bare.origin, bare.host) == ("https://files.example.com", "files.example.com"))
        #expect(try WellKnownOrigin("https://Files.Example.com:8443/").host == "files.example.com")
        #expect(try WellKnownOrigin("https://Files.Example.com:8443/").origin == "https://Files.Example.com:8443")
        for refused in ["http://files.example.com", "https://files.example.com/app", "https://u@files.example.com", "https://"] {
            #expect(throws: LintUsageError.self, "\(refused)") { try WellKnownOrigin(refused) }
        }
    }
}
