import Testing

@testable import Conformance

/// Following a bootstrapper's challenge to the issuer it names, and judging whether Microsoft's cloud can reach the
/// token endpoint (OpenID Connect Discovery 1.0 §4; Microsoft 365 for mobile, "Operational flows").
@Suite struct ProviderReachTests {
    @Test func issuerCandidatesStartAtTheOriginAndWalkThePath() {
        // Keycloak's authorization endpoint (Keycloak Server Administration Guide, "OpenID Connect endpoints").
        let keycloak = IssuerCandidates(authorizationEndpoint: "https://kc.example.com/realms/host/protocol/openid-connect/auth")
        #expect(keycloak.issuers == [
            "https://kc.example.com", "https://kc.example.com/realms", "https://kc.example.com/realms/host",
            "https://kc.example.com/realms/host/protocol", "https://kc.example.com/realms/host/protocol/openid-connect",
        ])
        // SignInBridge itself: the origin is the issuer, so one request finds it.
        #expect(IssuerCandidates(authorizationEndpoint: "http://127.0.0.1:8080/oauth2/authorize").issuers.first == "http://127.0.0.1:8080")
    }

    @Test func theMicrosoftIdentityPlatformV2IssuerIsACandidate() {
        let entra = IssuerCandidates(
            authorizationEndpoint: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/oauth2/v2.0/authorize")
        #expect(entra.issuers.contains("https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0"))
        #expect(entra.issuers.count == Set(entra.issuers).count)
    }

    @Test func aDeepPathIsBoundedAndARelativeOneHasNoCandidates() {
        let deep = IssuerCandidates(authorizationEndpoint: "https://a.example/1/2/3/4/5/6/7/8/9/authorize")
        #expect(deep.issuers.count == 1 + IssuerCandidates.maximumPrefixes)
        #expect(IssuerCandidates(authorizationEndpoint: "/oauth2/authorize").issuers.isEmpty)
    }

    @Test(arguments: [
        ("10.1.2.3", TokenEndpointReachability.Kind.nonPublic), ("172.16.0.1", .nonPublic), ("172.31.255.255", .nonPublic),
        ("172.32.0.1", .public), ("192.168.1.1", .nonPublic), ("169.254.169.254", .nonPublic), ("100.64.0.1", .nonPublic),
        ("100.128.0.1", .public), ("127.0.0.1", .loopback), ("127.9.9.9", .loopback), ("8.8.8.8", .public),
        ("::1", .loopback), ("fd12:3456::1", .nonPublic), ("fe80::1", .nonPublic), ("::ffff:10.0.0.1", .nonPublic),
        ("::ffff:127.0.0.1", .loopback), ("2001:4860:4860::8888", .public), ("[::1]", .loopback),
    ])
    func addressKinds(address: String, kind: TokenEndpointReachability.Kind) {
        #expect(TokenEndpointReachability.kind(of: address) == kind, "\(address)")
    }

    @Test func verdicts() {
        typealias R = TokenEndpointReachability
        #expect(R.verdict(addresses: ["10.0.0.5", "8.8.4.4"], allowLoopback: false) == .publicAddress)
        #expect(R.verdict(addresses: ["10.0.0.5", "fd00::5"], allowLoopback: true) == .privateOnly(["10.0.0.5", "fd00::5"]))
        #expect(R.verdict(addresses: ["127.0.0.1", "::1"], allowLoopback: true) == .developmentLoopback)
        #expect(R.verdict(addresses: ["127.0.0.1"], allowLoopback: false) == .privateOnly(["127.0.0.1"]))
        #expect(R.verdict(addresses: ["127.0.0.1", "10.0.0.1"], allowLoopback: true) == .privateOnly(["127.0.0.1", "10.0.0.1"]))
        #expect(R.verdict(addresses: [], allowLoopback: true) == .unresolved)
    }

    @Test func resolvingALiteralAndANameThatNeverResolves() async {
        #expect(await TokenEndpointReachability.resolve("127.0.0.1") == ["127.0.0.1"])
        #expect(await TokenEndpointReachability.resolve("[::1]") == ["::1"])
        // RFC 6761 §6.4: names under .invalid never resolve.
        #expect(await TokenEndpointReachability.resolve("token.invalid").isEmpty)
    }
}
