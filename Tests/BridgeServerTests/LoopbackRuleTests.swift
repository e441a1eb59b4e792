import Foundation
import Testing

@testable import BridgeServer

/// The server's two loopback decisions (config URLs, cookie `Secure`) follow SignInProtocol's `LoopbackHost`.
@Suite("Loopback rule in the server")
struct LoopbackRuleTests {
    static let lookAlikes = ["127.evil.example", "127.0.0.1.nip.io", "localhost.evil.example"]

    @Test(arguments: lookAlikes)
    func anIssuerOnALookAlikeHostNeedsHTTPS(host: String) throws {
        let problems = ConfigurationTests.problems(try ConfigurationBuilder.testBridge.issuer("http://\(host)").yaml())
        #expect(problems.contains { $0.keyPath == "issuer" && $0.message.contains("use https") }, "\(problems)")
    }

    @Test(arguments: lookAlikes)
    func cookiesStaySecureForALookAlikeHost(host: String) {
        #expect(BrowserCookies(issuer: "http://\(host)", sessionLifetimeSeconds: 60).secure)
        #expect(BrowserCookies(issuer: "http://\(host):8080/", sessionLifetimeSeconds: 60).secure)
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:9090"])
    func cookiesDropSecureOnlyForPlainHTTPOnLoopback(issuer: String) {
        #expect(!BrowserCookies(issuer: issuer, sessionLifetimeSeconds: 60).secure)
        let https = issuer.replacingOccurrences(of: "http:", with: "https:")
        #expect(BrowserCookies(issuer: https, sessionLifetimeSeconds: 60).secure)
    }
}
