import Testing
import SignInProtocol

@Suite struct RedirectURIPolicyTests {
    let policy = RedirectURIPolicy()

    @Test(arguments: [
        ("com.example.app:/oauth2redirect", RedirectURIPolicy.ClientKind.native),
        ("com.example.app://callback", .native),
        ("http://127.0.0.1/callback", .native),
        ("http://127.0.0.1:8080/callback", .native),
        ("http://[::1]:49152/", .native),
        ("https://app.example.com/oauth/callback", .native),
        ("https://app.example.com/oauth/callback?tenant=1", .web),
    ])
    func acceptsWhatRFC8252Allows(uri: String, client: RedirectURIPolicy.ClientKind) {
        let assessment = policy.assessRegistration(uri, for: client)
        #expect(assessment.isAcceptable)
        #expect(assessment.problems.isEmpty)
    }

    @Test(arguments: [
        ("/relative/path", RedirectURIPolicy.ClientKind.web, RedirectURIPolicy.Problem.notAbsolute),
        ("https://app.example.com/cb#frag", .web, .hasFragment),
        ("https://*.example.com/cb", .web, .hasWildcard),
        ("https://user:pw@app.example.com/cb", .web, .hasUserInfo),
        ("http://app.example.com/cb", .web, .plainHTTP(host: "app.example.com")),
        ("https:///cb", .web, .missingHost),
        ("merchantapp://callback", .native, .schemeNotReverseDomain("merchantapp")),
        ("com.example.app:/cb", .web, .privateSchemeForWebClient("com.example.app")),
    ])
    func refusesWithATypedReason(uri: String, client: RedirectURIPolicy.ClientKind, problem: RedirectURIPolicy.Problem) {
        let assessment = policy.assessRegistration(uri, for: client)
        #expect(assessment.problems.contains(problem))
        #expect(assessment.errors.contains(problem))
        #expect(!assessment.isAcceptable)
        #expect(problem.description.contains("redirect") || problem.description.contains("scheme") || problem.description.contains("http"))
    }

    /// One loopback rule: IP literals and `localhost` get the same answer for a confidential client (a warning, for
    /// development), and the answer never recommends a URI that the same rule refuses.
    @Test(arguments: ["http://127.0.0.1:5000/cb", "http://localhost:5000/cb", "https://localhost", "http://[::1]/cb"])
    func loopbackOnAConfidentialClientIsAWarningWhateverItsName(uri: String) {
        let assessment = policy.assessRegistration(uri, for: .web)
        #expect(assessment.isAcceptable)
        #expect(assessment.warnings == [.loopbackForWebClient])
    }

    @Test func localhostIsOnlyAWarningForNativeApps() {
        let native = policy.assessRegistration("http://localhost:8080/cb", for: .native)
        #expect(native.isAcceptable)
        #expect(native.warnings == [.localhostNotRecommended])
        // Following the warning's advice gives a URI with no problem at all, for the same client.
        #expect(policy.assessRegistration("http://127.0.0.1:8080/cb", for: .native).problems.isEmpty)
    }

    @Test func plainPrivateSchemesCanBeDowngradedToAWarning() {
        let lenient = RedirectURIPolicy(requireReverseDomainScheme: false)
        let assessment = lenient.assessRegistration("merchantapp://callback", for: .native)
        #expect(assessment.isAcceptable)
        #expect(assessment.warnings == [.schemeNotReverseDomain("merchantapp")])
    }

    @Test func requestTimeMatchingIsExact() throws {
        let registered = ["https://app.example.com/cb", "com.example.app:/cb"]
        #expect(try policy.resolve(requested: "https://app.example.com/cb", registered: registered, for: .native) == "https://app.example.com/cb")
        for near in ["https://app.example.com/cb/", "https://APP.example.com/cb", "https://app.example.com/c%62",
                     "https://app.example.com/cb?x=1", "https://app.example.com:443/cb", "com.example.app:/cb#x"] {
            #expect(throws: RedirectURIPolicy.Mismatch.notRegistered(near)) {
                try policy.resolve(requested: near, registered: registered, for: .native)
            }
        }
    }

    @Test func localhostPortIsExemptLikeTheIPLiterals() throws {
        let registered = ["http://localhost/callback"]
        #expect(try policy.resolve(requested: "http://localhost:51004/callback", registered: registered, for: .native) == "http://localhost:51004/callback")
        #expect(throws: RedirectURIPolicy.Mismatch.notRegistered("http://localhost:51004/callback")) {
            try policy.resolve(requested: "http://localhost:51004/callback", registered: registered, for: .web)
        }
    }

    @Test func loopbackPortIsExemptForNativeClientsOnly() throws {
        let registered = ["http://127.0.0.1/callback", "http://[::1]:1234/cb"]
        #expect(try policy.resolve(requested: "http://127.0.0.1:51004/callback", registered: registered, for: .native) == "http://127.0.0.1:51004/callback")
        #expect(try policy.resolve(requested: "http://[::1]:60000/cb", registered: registered, for: .native) == "http://[::1]:60000/cb")
        #expect(try policy.resolve(requested: "http://[::1]/cb", registered: registered, for: .native) == "http://[::1]/cb")
        #expect(throws: RedirectURIPolicy.Mismatch.notRegistered("http://127.0.0.1:51004/callback")) {
            try policy.resolve(requested: "http://127.0.0.1:51004/callback", registered: registered, for: .web)
        }
        // Only the port is exempt: path, host and scheme still match exactly.
        for other in ["http://127.0.0.1:51004/callback2", "http://127.0.0.2:51004/callback", "https://127.0.0.1:51004/callback",
                      "http://localhost:51004/callback", "http://127.0.0.1:99999/callback", "http://127.0.0.1:80x/callback"] {
            #expect(throws: RedirectURIPolicy.Mismatch.notRegistered(other)) {
                try policy.resolve(requested: other, registered: registered, for: .native)
            }
        }
    }

    @Test func missingRedirectURI() throws {
        #expect(try policy.resolve(requested: nil, registered: ["https://a.example/cb"], for: .web) == "https://a.example/cb")
        #expect(throws: RedirectURIPolicy.Mismatch.missing) {
            try policy.resolve(requested: nil, registered: ["https://a.example/cb"], for: .web, requireInRequest: true)
        }
        #expect(throws: RedirectURIPolicy.Mismatch.missing) {
            try policy.resolve(requested: "", registered: ["https://a.example/cb", "https://b.example/cb"], for: .web)
        }
        #expect(RedirectURIPolicy.Mismatch.missing.oauthError.code == .invalidRequest)
    }
}
