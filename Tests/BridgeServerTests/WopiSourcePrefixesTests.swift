@testable import BridgeServer
import Testing

/// `X-WOPI-WopiSrc` against the configured prefixes, compared as URLs (Microsoft's WOPI docs: WopiSrc is the URL of
/// the file's WOPI endpoint; RFC 3986 §6.2.2.1: scheme and host are case-insensitive).
@Suite("WopiSourcePrefixes")
struct WopiSourcePrefixesTests {
    let prefixes = WopiSourcePrefixes(["https://WOPI.example/wopi/files", "https://bücher.example:8443/wopi/files"])

    @Test(arguments: [
        "https://wopi.example/wopi/files/1",
        "HTTPS://Wopi.Example:443/wopi/files/abc",
        "https://xn--bcher-kva.example:8443/wopi/files/1",
        "https://bücher.example:8443/wopi/files/1",
    ])
    func accepts(_ wopiSrc: String) {
        #expect(prefixes.contains(wopiSrc))
    }

    @Test(arguments: [
        "https://wopi.example/wopi/files",  // the folder itself
        "https://wopi.example/wopi/files-of-someone-else/1",
        "https://wopi.example.attacker.test/wopi/files/1",
        "https://wopi.example:444/wopi/files/1",
        "http://wopi.example/wopi/files/1",
        "https://user@wopi.example/wopi/files/1",
        "https://wopi%2Eexample/wopi/files/1",  // an encoded dot is not the configured host
        "https://wopi.example/wopi/files/%2e%2e/secret",
        "https://xn--bcher-kva.example/wopi/files/1",  // other port
    ])
    func refuses(_ wopiSrc: String) {
        #expect(!prefixes.contains(wopiSrc))
    }
}
