import SignInProtocol
import Testing

@Suite("LoopbackHost")
struct LoopbackHostTests {
    @Test(arguments: [
        "127.0.0.1", "127.10.0.254", "127.255.255.255", "[::1]", "::1", "[0:0:0:0:0:0:0:1]", "[::0001]", "[0::1]",
    ])
    func ipLiteralsAreLoopback(host: String) {
        #expect(LoopbackHost(host) == .ipLiteral)
        #expect(LoopbackHost.isLoopback(host))
        #expect(LoopbackHost.isIPLiteral(host))
    }

    @Test(arguments: ["localhost", "LOCALHOST", "LocalHost"])
    func theNameLocalhostIsLoopbackButNotALiteral(host: String) {
        #expect(LoopbackHost(host) == .localhostName)
        #expect(LoopbackHost.isLoopback(host))
        #expect(!LoopbackHost.isIPLiteral(host))
    }

    /// Names DNS can point anywhere, and look-alike literals: none is loopback.
    @Test(arguments: [
        "127.evil.example", "127.0.0.1.nip.io", "localhost.evil.example", "evil.localhost", "127.0.0", "127.0.0.1.",
        "127.0.0.256", "127.0.0.0001", "128.0.0.1", "0.0.0.0", "[::2]", "[::]", "[::1", "::1]", "[:::1]", "[1::1]",
        "[0:0:0:0:0:0:0:0:1]", "", "127.0.0.-1", "127.0.0.1:80", "localhost:8080", "[::ffff:127.0.0.1]",
    ])
    func lookAlikesAreNotLoopback(host: String) {
        #expect(LoopbackHost(host) == nil)
        #expect(!LoopbackHost.isLoopback(host))
    }

    @Test func noHostIsNotLoopback() {
        #expect(!LoopbackHost.isLoopback(String?.none))
    }

    /// The three callers in this module agree with it: endpoint URIs and redirect URIs.
    @Test(arguments: ["127.evil.example", "127.0.0.1.nip.io", "localhost.evil.example"])
    func endpointAndRedirectRulesRefusePlainHTTPToLookAlikes(host: String) {
        #expect(EndpointURIRule.problem(with: "http://\(host)/t") == .insecureScheme("http"))
        let assessment = RedirectURIPolicy().assessRegistration("http://\(host)/cb", for: .native)
        #expect(assessment.errors == [.plainHTTP(host: host)])
    }
}
