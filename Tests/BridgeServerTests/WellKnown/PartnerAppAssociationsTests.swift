@testable import BridgeServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The association files `serve` publishes for `partnerApps`, as the platforms fetch them.
@Suite struct PartnerAppAssociationsTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let configuration = ConfigurationBuilder.testBridge.addingSections("""
        partnerApps:
          - ios: {teamId: ABCDE12345, bundleIds: [com.contoso.files, com.contoso.files.emm]}
            android: {packageName: com.contoso.files, sha256Fingerprints: ["\(fingerprint)"]}
            redirectPaths: [/oauth2/app-callback]
          - android: {packageName: com.contoso.notes, sha256Fingerprints: ["\(fingerprint)"]}
            redirectPaths: [/notes/callback]
        """)

    @Test func bothFilesAreServedAsJSONWithoutRedirect() async throws {
        let bridge = try await TestBridge.make(Self.configuration)
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/.well-known/apple-app-site-association", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let details = try #require((json["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
                #expect(details.count == 1)
                #expect(details[0]["appIDs"] as? [String] == ["ABCDE12345.com.contoso.files", "ABCDE12345.com.contoso.files.emm"])
                #expect(details[0]["components"] as? [[String: String]] == [["/": "/oauth2/app-callback"]])
                #expect((json["webcredentials"] as? [String: Any])?["apps"] as? [String] == details[0]["appIDs"] as? [String])
            }
            try await client.execute(uri: "/.well-known/assetlinks.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let statements = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
                #expect(statements.compactMap { ($0["target"] as? [String: Any])?["package_name"] as? String } == ["com.contoso.files", "com.contoso.notes"])
                #expect(statements[0]["relation"] as? [String] == [
                    "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
                ])
            }
        }
    }

    @Test func withoutPartnerAppsNeitherFileExists() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            for path in [PartnerAppAssociations.appleAppSiteAssociationPath, PartnerAppAssociations.assetLinksPath] {
                try await client.execute(uri: path, method: .get) { response in #expect(response.status == .notFound) }
            }
        }
        // And an Android-only list has no Apple file.
        let android = try Self.configuration.configuration.partnerApps?.filter { $0.ios == nil }
        #expect(PartnerAppAssociations.appleAppSiteAssociation(android ?? []) == nil)
    }

    @Test func theSchemaRefusesWildcardPathsAndLowerCaseFingerprints() throws {
        let wildcard = try Self.configuration.setting("partnerApps[1].redirectPaths[0]", to: "/notes/*").yaml()
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader(environment: [:]).load(yaml: wildcard) }
        let lower = try Self.configuration.setting(
            "partnerApps[0].android.sha256Fingerprints[0]", to: .string(Self.fingerprint.lowercased())).yaml()
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader(environment: [:]).load(yaml: lower) }
    }
}
