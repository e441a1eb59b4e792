@testable import BridgeHTTP
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
}
