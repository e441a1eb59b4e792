import Testing

@testable import Conformance

/// The pieces of the sign-in automation and masking, on inputs shaped like real pages and URLs.
@Suite struct SignInPieceTests {
    @Test func fillsTheFirstPasswordFormKeepingHiddenInputs() {
        let page = """
            <form method="get" action="/search"><input name="q"></form>
            <form method="post" action="/oauth2/signin?x=1&amp;y=2">
            <input type="hidden" name="csrf_token" value="a&quot;b">
            <input type="text" id="username" name="username" value="" autocomplete="username">
            <input type="password" id="password" name="password" required>
            <button type="submit">Sign in</button></form>
            """
        let forms = HTMLForm.forms(in: page)
        #expect(forms.count == 2)
        let form = forms.first(where: \.hasPassword)!
        #expect(form.action == "/oauth2/signin?x=1&y=2")
        #expect(form.method == "POST")
        let fields = form.fields(username: "u@example.com", password: "pw")
        #expect(fields.map(\.0) == ["csrf_token", "username", "password"])
        #expect(fields.map(\.1) == ["a\"b", "u@example.com", "pw"])
    }

    @Test func pressesTheAllowButtonOfAConsentForm() {
        let page = """
            <form method="post" action="/oauth2/consent"><input type="hidden" name="csrf_token" value="t">
            <button type="submit" name="decision" value="deny">Deny</button>
            <button type="submit" name="decision" value="allow">Allow</button></form>
            """
        let fields = HTMLForm.forms(in: page)[0].fields(username: nil, password: nil)
        #expect(fields.map(\.0) == ["csrf_token", "decision"])
        #expect(fields.last?.1 == "allow")
    }

    /// Django's login page posts to `action=""`: the page's own URL, as with no action (found against
    /// django-oauth-toolkit, whose sign-in the suite could not submit before).
    @Test func anEmptyActionPostsToThePageItself() {
        let forms = HTMLForm.forms(in: #"<form method="post" action=""><input type="password" name="p"></form><form action="/x"></form>"#)
        #expect(forms.map(\.action) == [nil, "/x"])
    }

    @Test func masksSecretQueryValuesOnly() {
        let url = "https://localhost/?code=abcdefgh12345&state=s1&sc=xyzxyzxyz&tk=https%3A%2F%2Fh%2Ft"
        #expect(SecretMask.maskURL(url) == "https://localhost/?code=abcd…(13)&state=s1&sc=xyzx…(9)&tk=https%3A%2F%2Fh%2Ft")
        #expect(SecretMask.maskURL("https://h/a?code=ab") == "https://h/a?code=****")
        #expect(SecretMask.maskURL("https://h/a") == "https://h/a")
    }

    @Test func stopsAtTheRedirectURIWithAnyQueryButNotAtALookalike() {
        #expect(URLParts.isRedirect("https://localhost?code=1&state=2", to: "https://localhost"))
        #expect(URLParts.isRedirect("https://localhost/?code=1", to: "https://localhost"))
        #expect(URLParts.isRedirect("com.example.partner:/oauth2redirect?code=1", to: "com.example.partner:/oauth2redirect"))
        #expect(!URLParts.isRedirect("https://localhost.attacker.invalid/?code=1", to: "https://localhost"))
        #expect(!URLParts.isRedirect("https://localhost/extra?code=1", to: "https://localhost"))
    }

    @Test func theNaiveReaderSplitsAsOldClientsDo() {
        let read = NaiveChallengeReader.read(#"Bearer authorization_uri="https://h/a?x=1,2",providerId="TP""#)
        #expect(read["authorization_uri"] == "https://h/a?x=1")
        #expect(read["providerid"] == "TP")
    }

    @Test func forgesAnExpiredTokenFromTheHostsOwn() throws {
        let header = Base64URLText.encode(#"{"alg":"ES256","kid":"k1"}"#)
        let claims = Base64URLText.encode(#"{"exp":4102444800,"jti":"j1","sub":"demo"}"#)
        let token = header + "." + claims + ".c2lnbmF0dXJl"
        let expired = try #require(TokenForgery.expired(token))
        let parts = try #require(TokenForgery.split(expired))
        #expect(parts.signature == "c2lnbmF0dXJl")
        #expect(parts.claims["jti"] == .string("j1"))
        guard case .integer(let exp) = parts.claims["exp"] else { Issue.record("exp"); return }
        #expect(exp < Int64(Date().timeIntervalSince1970))
        let foreign = try #require(TokenForgery.foreignSigned(token))
        #expect(TokenForgery.split(foreign)?.claims == TokenForgery.split(token)?.claims)
        #expect(!foreign.hasSuffix(".c2lnbmF0dXJl"))
    }

    /// `--insecure-http-loopback` lets http through only to a loopback host, by the project's one rule: a public name
    /// that starts like one does not count.
    @Test(arguments: [
        ("http://127.0.0.1:8080/wopibootstrapper", true), ("http://localhost/x", true), ("http://[::1]:9/x", true),
        ("http://127.evil.example/x", false), ("http://127.0.0.1.nip.io/x", false), ("https://127.0.0.1/x", false),
        ("http://files.example/x", false),
    ])
    func onlyALoopbackHostIsLoopbackHTTP(url: String, loopback: Bool) {
        #expect(URLParts.isLoopbackHTTP(url) == loopback, "\(url)")
    }
}

import Foundation
import SignInProtocol

enum Base64URLText {
    static func encode(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }
}
