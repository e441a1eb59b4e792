@testable import BridgeHTTP
import Testing

/// One rule for "same origin" (RFC 6454 §4), used by the WopiSrc prefixes and the token endpoint's extra paths.
@Suite("WebOrigin")
struct WebOriginTests {
    @Test func schemeAndHostIgnoreCaseAndTheDefaultPortIsFilledIn() {
        #expect(WebOrigin(url: "HTTPS://Host.Example:443/a") == WebOrigin(url: "https://host.example/b?c"))
        #expect(WebOrigin(url: "http://host.example/")?.port == 80)
        #expect(WebOrigin(url: "https://host.example:8443")?.description == "https://host.example:8443")
    }

    @Test func differentSchemeOrPortIsAnotherOrigin() {
        #expect(WebOrigin(url: "http://host.example") != WebOrigin(url: "https://host.example"))
        #expect(WebOrigin(url: "https://host.example:444") != WebOrigin(url: "https://host.example"))
    }

    /// An IDN written in Unicode or as punycode is one host (`encodedHost` gives the punycode, without ICU).
    @Test func anIDNInUnicodeOrPunycodeIsOneOrigin() {
        #expect(WebOrigin(url: "https://xn--bcher-kva.example")?.host == "xn--bcher-kva.example")
        #expect(WebOrigin(url: "https://bücher.example") == WebOrigin(url: "https://xn--bcher-kva.example"))
    }

    @Test(arguments: ["ftp://host.example", "https://", "https://user@host.example", "msauth.com.example://auth", "not a url"])
    func refuses(_ url: String) {
        #expect(WebOrigin(url: url) == nil)
    }
}
