@testable import BridgeServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

/// RFC 9207: every authorization response names its issuer in `iss`, success and error alike, and the metadata
/// says so (`authorization_response_iss_parameter_supported`).
@Suite("RFC 9207 iss on authorization responses")
struct IssuerParameterTests {
    static let issuer = "https://contoso.com"

    @Test func theCodeRedirectTheErrorRedirectsAndTheMetadataCarryTheIssuer() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signIn = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            let consent = try await browser.get(try #require(try await browser.signIn(on: signIn).location))
            let done = try await browser.decide("allow", on: consent)
            let success = try AuthorizationResponse.decode(redirectURL: try #require(done.location))
            #expect(success.code != nil && success.issuer == Self.issuer)

            // An error from the checks (redirected by AuthorizePipeline) and one from the user (CodeIssuance).
            let unsupported = try await browser.get(
                "/oauth2/authorize?client_id=office&redirect_uri=https%3A%2F%2Flocalhost&response_type=token&state=s2")
            #expect(try unsupported.redirectParameters()["iss"] == Self.issuer)
            #expect(try unsupported.redirectParameters()["error"] == "unsupported_response_type")
            let again = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery + "&prompt=consent")
            let denied = try AuthorizationResponse.decode(
                redirectURL: try #require(try await browser.decide("deny", on: again).location))
            #expect(denied.error?.code == .accessDenied && denied.issuer == Self.issuer)

            let metadata = try await browser.get("/.well-known/openid-configuration")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(metadata.body.utf8)) as? [String: Any])
            #expect(json["authorization_response_iss_parameter_supported"] as? Bool == true)
        }
    }

    @Test func aPromptNoneRefusalCarriesTheIssuer() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/oauth2/authorize?" + AuthorizeFixture.officeQuery + "&prompt=none")
            let refused = try AuthorizationResponse.decode(redirectURL: try #require(page.location))
            #expect(refused.error?.code == .loginRequired && refused.issuer == Self.issuer)
        }
    }
}
