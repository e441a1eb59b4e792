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

    static let withUpstream = ConfigurationBuilder.testBridge.addingSections(upstream)

    @Test func anUpstreamWithDefaultsLoads() throws {
        let configuration = try Self.withUpstream.configuration
        let loaded = try #require(configuration.upstreams.first)
        #expect(loaded.scopes == ["openid", "profile", "email"])
        #expect(loaded.timeoutSeconds == 10 && !loaded.appToApp && !loaded.linkByVerifiedEmail)
        #expect(loaded.claims.emailVerified == "email_verified")
        #expect(loaded.callbackURL(in: configuration) == "https://contoso.com/auth/upstream/idp-a/callback")
        #expect(configuration.broker.sessionLifetimeSeconds == 180 && configuration.broker.clientId == nil)
    }

    @Test(arguments: [
        (withUpstream.setting("upstreams[0].scopes", to: ["profile"]), "upstreams[0].scopes", "must contain openid"),
        (withUpstream.setting("upstreams[0].appToApp", to: true), "upstreams[0].appCallbackUri", "is required with appToApp"),
        (withUpstream.setting("upstreams[0].id", to: "session"), "upstreams[0].id", "taken by a route"),
        (withUpstream.setting("upstreams[0].issuer", to: "http://id.example.com"), "upstreams[0].issuer", "use https"),
        (
            withUpstream.appending(.yaml("{id: idp-a, name: Again, issuer: 'https://b.example', clientId: x}"), to: "upstreams"),
            "upstreams[1].id", "repeats"
        ),
        (withUpstream.addingSections("broker: {clientId: nobody}"), "broker.clientId", "names no configured client"),
        (ConfigurationBuilder.testBridge.addingSections("broker: {clientId: office}"), "broker.clientId", "needs at least one upstream"),
        (withUpstream.addingSections("broker: {sessionLifetimeSeconds: 1}"), "broker.sessionLifetimeSeconds", "at least 5"),
    ])
    func problemsNameTheirKey(_ edited: ConfigurationBuilder, _ keyPath: String, _ message: String) throws {
        let problems = ConfigurationTests.problems(try edited.yaml())
        #expect(
            problems.contains { $0.keyPath == keyPath && $0.message.contains(message) },
            "expected \(keyPath): \(message), got \(problems)")
    }
}
