import SignInProtocol
import Testing

/// The `Authorization` header forms the bootstrapper takes (RFC 6750 §2.1, and Office's documented `Bearer:`).
@Suite("BearerCredential")
struct BearerCredentialTests {
    @Test(arguments: [
        ("Bearer abc.def-_~+/==", "abc.def-_~+/=="),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("  Bearer \t abc \t ", "abc"),
        // Microsoft's Office app-to-app docs: the Office docs write a colon after the scheme.
        ("Bearer: abc", "abc"),
        ("Bearer:abc", "abc"),
    ])
    func acceptsTheToken(header: String, token: String) {
        #expect(BearerCredential(authorization: header, maxBytes: 100)?.token == token)
    }

    @Test(arguments: [
        "", "Bearer", "Bearer ", "Bearer:", "Bearerabc", "Basic abc", "Bearer a b", "Bearer =abc", "Bearer ab=c",
        "Bearer abç", "Bearer a,b", "Bear abc", "Bearer\u{0}abc",
    ])
    func refusesAnythingElse(header: String) {
        #expect(BearerCredential(authorization: header, maxBytes: 100) == nil)
    }

    /// RFC 9449 §7.1: the `DPoP` scheme, only where asked for, and without Office's colon form.
    @Test func readsTheDPoPSchemeWhenAskedTo() {
        #expect(BearerCredential(authorization: "DPoP abc", maxBytes: 100, scheme: .dpop)?.token == "abc")
        #expect(BearerCredential(authorization: "dpop  abc ", maxBytes: 100, scheme: .dpop)?.token == "abc")
        #expect(BearerCredential(authorization: "DPoP abc", maxBytes: 100) == nil)
        #expect(BearerCredential(authorization: "Bearer abc", maxBytes: 100, scheme: .dpop) == nil)
        #expect(BearerCredential(authorization: "DPoP: abc", maxBytes: 100, scheme: .dpop) == nil)
        #expect(BearerCredential(authorization: "DPoPabc", maxBytes: 100, scheme: .dpop) == nil)
        #expect(BearerTokenPresentation(authorization: "DPoP abc", formToken: nil, maxHeaderBytes: 100) == .none)
        #expect(
            BearerTokenPresentation(authorization: "DPoP abc", formToken: nil, maxHeaderBytes: 100, acceptsDPoP: true)
                == .token("abc", in: .dpopHeader))
    }

    @Test func refusesAHeaderOverTheLimit() {
        let token = String(repeating: "a", count: 93)
        #expect(BearerCredential(authorization: "Bearer " + token, maxBytes: 100)?.token == token)
        #expect(BearerCredential(authorization: "Bearer " + token + "a", maxBytes: 100) == nil)
        #expect(BearerCredential(authorization: nil, maxBytes: 100) == nil)
    }
}
