@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

@Suite("Client address behind trusted proxies")
struct ClientAddressTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.200.3.4", true), ("10.0.0.0/8", "11.0.0.1", false), ("203.0.113.7", "203.0.113.7", true),
        ("203.0.113.7", "203.0.113.8", false), ("192.168.0.0/23", "192.168.1.255", true),
        ("192.168.0.0/23", "192.168.2.0", false), ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe80::1", false),
        ("::1", "::1", true), ("0.0.0.0/0", "8.8.8.8", true), ("10.0.0.0/8", "::ffff:10.1.2.3", true),
        ("10.0.0.0/8", "fd00::1", false),
    ])
    func rangesMatchAddresses(range: String, address: String, matches: Bool) throws {
        let parsed = try #require(IPAddressRange(range))
        #expect(parsed.contains(try #require(IPAddressRange.addressBytes(address))) == matches)
    }

    @Test(arguments: ["", "10.0.0.0/33", "fd00::/129", "10.0.0/8", "example.com", "10.0.0.1/", "10.0.0.1/x", "1.2.3.4/-1"])
    func malformedRangesAreRefused(text: String) {
        #expect(IPAddressRange(text) == nil)
    }

    @Test func theRightmostUntrustedHopIsTheClient() {
        let resolver = ClientAddress(trustedProxies: [IPAddressRange("10.0.0.0/8")!, IPAddressRange("127.0.0.1")!])
        // Not from a proxy: headers are the client's own words, ignored.
        #expect(resolver.resolve(peer: "198.51.100.9", forwardedFor: ["1.2.3.4"]) == "198.51.100.9")
        // Through two of our proxies; the client's own forged entry sits to the left and is not reached.
        #expect(resolver.resolve(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.9, 10.1.1.1"]) == "198.51.100.9")
        // Several header lines are one list.
        #expect(resolver.resolve(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.9"]) == "198.51.100.9")
        // A proxy that sent no header, or garbage: the last address we could trust.
        #expect(resolver.resolve(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(resolver.resolve(peer: "127.0.0.1", forwardedFor: ["not-an-ip, 10.1.1.1"]) == "10.1.1.1")
        #expect(resolver.resolve(peer: nil, forwardedFor: ["198.51.100.9"]) == "unknown")
    }

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
