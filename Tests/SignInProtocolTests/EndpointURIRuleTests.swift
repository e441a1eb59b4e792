import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct EndpointURIRuleTests {
    @Test(arguments: [
        "https://contoso.com/api/oauth2/token", "HTTPS://Contoso.com:8443/a?b=c&d=%20", "https://[2001:db8::1]/t",
        "http://localhost/t", "http://LOCALHOST:8080/t", "http://127.0.0.1/t", "http://127.10.0.254:9/t", "http://[::1]:8/t",
    ])
    func accepts(uri: String) {
        #expect(EndpointURIRule.problem(with: uri) == nil)
    }

    @Test(arguments: [
        ("http://localhost.evil.example/t", EndpointURIRule.Problem.insecureScheme("http")),
        ("http://127.0.0.1.evil.example/t", .insecureScheme("http")),
        ("http://127.0.0.1@evil.example/t", .insecureScheme("http")),
        ("http://128.0.0.1/t", .insecureScheme("http")),
        ("http://[::2]/t", .insecureScheme("http")),
        ("https://[::1/t", .missingHost),
        ("", .notAbsolute),
        (":no-scheme", .notAbsolute),
        ("1https://h/t", .notAbsolute),
        ("https://h/é", .invalidCharacter(offset: 10)),
    ])
    func refuses(uri: String, problem: EndpointURIRule.Problem) {
        #expect(EndpointURIRule.problem(with: uri) == problem)
    }
}
