@testable import BridgeHTTP
@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

@Suite("Client address behind trusted proxies: configuration and the throttle")
struct ClientAddressTests {
    @Test func aMalformedProxyInTheConfigurationIsAnErrorNamingIt() throws {
        let yaml = try ConfigurationBuilder.testBridge.setting("listen.trustedProxies", to: ["10.0.0.0/8", "nonsense"]).yaml()
        #expect {
            _ = try ConfigurationLoader(environment: [:]).load(yaml: yaml)
        } throws: { error in
            "\(error)".contains("listen.trustedProxies[1]") && "\(error)".contains("nonsense")
        }
    }

    /// Over a real socket: the test client connects from 127.0.0.1, configured as a proxy.
    @Test func behindATrustedProxyTheThrottleCountsTheForwardedClient() async throws {
        let bridge = try await AuthorizeFixture.make(.authorizeFixture.setting("listen.trustedProxies", to: ["127.0.0.1"]))
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            func signIn(_ user: String, _ password: String, from address: String) async throws -> HTTPResponse.Status {
                var form = FormParameters()
                let csrf: String = try #require(page.hiddenValue("csrf_token"))
                form.append("csrf_token", csrf)
                form.append("username", user)
                form.append("password", password)
                let headers: HTTPFields = [ClientAddress.forwardedForField: address]
                return try await browser.post(try #require(page.formAction), form: form, headers: headers).status
            }
            for _ in 0..<3 { #expect(try await signIn("nobody@contoso.com", "wrong", from: "198.51.100.1") == .ok) }
            // The attacker's address is throttled, for any account...
            #expect(try await signIn("alice@contoso.com", AuthorizeFixture.password, from: "198.51.100.1") == .tooManyRequests)
            // ...while everyone else behind the same proxy signs in.
            #expect(try await signIn("alice@contoso.com", AuthorizeFixture.password, from: "198.51.100.2") == .seeOther)
        }
    }
}
