import BridgeServer
import Foundation
import Testing

/// The `upstreams:` and `broker:` rules of `ConfigurationChecks` and the schema.
@Suite struct UpstreamConfigurationTests {
    static let upstream = """
        upstreams:
          - id: idp-a
            name: Example ID
            issuer: https://id.example.com
            clientId: bridge
        """

    static func problems(_ extra: String) -> [ConfigurationProblem] {
        ConfigurationTests.problems(TestBridge.yaml.replacingOccurrences(of: "users:", with: extra + "\nusers:"))
    }

    @Test func anUpstreamWithDefaultsLoads() throws {
        let yaml = TestBridge.yaml.replacingOccurrences(of: "users:", with: Self.upstream + "\nusers:")
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        let loaded = try #require(configuration.upstreams.first)
        #expect(loaded.scopes == ["openid", "profile", "email"])
        #expect(loaded.timeoutSeconds == 10 && !loaded.appToApp && !loaded.linkByVerifiedEmail)
        #expect(loaded.claims.emailVerified == "email_verified")
        #expect(loaded.callbackURL(in: configuration) == "https://contoso.com/auth/upstream/idp-a/callback")
        #expect(configuration.broker.sessionLifetimeSeconds == 180 && configuration.broker.clientId == nil)
    }

    @Test(arguments: [
        (upstream + "\n    scopes: [profile]", "upstreams[0].scopes", "must contain openid"),
        (upstream + "\n    appToApp: true", "upstreams[0].appCallbackUri", "is required with appToApp"),
        (upstream.replacingOccurrences(of: "idp-a", with: "session"), "upstreams[0].id", "taken by a route"),
        (upstream.replacingOccurrences(of: "https://id.example.com", with: "http://id.example.com"), "upstreams[0].issuer", "use https"),
        (upstream + "\n  - {id: idp-a, name: Again, issuer: 'https://b.example', clientId: x}", "upstreams[1].id", "repeats"),
        (upstream + "\nbroker: {clientId: nobody}", "broker.clientId", "names no configured client"),
        ("broker: {clientId: office}", "broker.clientId", "needs at least one upstream"),
        (upstream + "\nbroker: {sessionLifetimeSeconds: 1}", "broker.sessionLifetimeSeconds", "at least 5"),
    ])
    func problemsNameTheirKey(_ extra: String, _ keyPath: String, _ message: String) {
        let problems = Self.problems(extra)
        #expect(
            problems.contains { $0.keyPath == keyPath && $0.message.contains(message) },
            "expected \(keyPath): \(message), got \(problems)")
    }
}
