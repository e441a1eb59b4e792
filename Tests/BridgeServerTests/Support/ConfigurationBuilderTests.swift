import BridgeServer
import Testing

/// The builder's promise: an edit either lands in the configuration the loader returns, or throws naming its path.
@Suite("Configuration builder")
struct ConfigurationBuilderTests {
    @Test(arguments: [
        (ConfigurationBuilder.testBridge.setting("signIn.throttle.maxFailures", to: 3), "signIn.throttle.maxFailures"),
        (ConfigurationBuilder.testBridge.client("nobody", setting: "profile", to: "office"), "clients[nobody].profile"),
        (ConfigurationBuilder.testBridge.removing("clients[0].sessionContext"), "clients[0].sessionContext"),
        (ConfigurationBuilder.testBridge.removing("users[1]"), "users[1]"),
        (ConfigurationBuilder.testBridge.appending("x", to: "issuer"), "issuer"),
        (ConfigurationBuilder.testBridge.setting("listen.port.number", to: 1), "listen.port.number"),
        (ConfigurationBuilder.testBridge.merging("name: Office", into: "clients[office].grants"), "clients[office].grants"),
        (ConfigurationBuilder.testBridge.addingSections("wopi: {accessTokenLifetimeSeconds: 60}"), "wopi"),
        (ConfigurationBuilder.testBridge.setting("clients[office", to: true), "clients[office"),
    ])
    func anEditOfAPathTheFixtureLacksThrowsNamingIt(edited: ConfigurationBuilder, path: String) {
        #expect {
            _ = try edited.yaml()
        } throws: { error in
            (error as? ConfigurationEditError)?.path == path
        }
    }

    @Test func editsShowUpInTheLoadedConfiguration() throws {
        let configuration = try ConfigurationBuilder.authorizeFixture
            .issuer("https://files.example")
            .requestLogs(true)
            .setting("signIn.throttle.maxFailures", to: 7)
            .client("office", setting: "name", to: "3600")
            .removing("clients[partner-app]")
            .addingClient("{id: extra-app, public: true, redirectUris: [com.example.extra:/cb], grants: [authorization_code]}")
            .addingSections("limits: {maxBodyBytes: 4096}")
            .configuration
        #expect(configuration.issuer == "https://files.example")
        #expect(configuration.log.requests)
        #expect(configuration.signIn.throttle.maxFailures == 7)
        #expect(configuration.clients.first { $0.id == "office" }?.name == "3600", "a quoted string stays a string")
        #expect(configuration.clients.map(\.id) == ["office", "own-app", "robot", "extra-app"])
        #expect(configuration.limits.maxBodyBytes == 4096)
    }

    @Test func theUneditedFixtureLoadsAsItsText() throws {
        let fromText = try ConfigurationLoader(environment: [:]).load(yaml: OpenIDFixture.yaml).configuration
        #expect(try ConfigurationBuilder.openIDFixture.configuration == fromText)
    }

    /// Only the last key of a path may be new, and the schema refuses one it does not know.
    @Test func aMisspeltNewKeyIsLeftToTheLoadersSchema() throws {
        let yaml = try ConfigurationBuilder.testBridge.setting("log.request", to: true).yaml()
        let problems = ConfigurationTests.problems(yaml)
        #expect(problems.contains { $0.keyPath == "log.request" }, "\(problems)")
    }

    /// A raw value goes in as written, so a test can still hand the loader one it must refuse.
    @Test func aRawValueReachesTheLoaderAsWritten() throws {
        let yaml = try ConfigurationBuilder.testBridge.setting("listen.port", to: .yaml("eighty")).yaml()
        #expect(ConfigurationTests.problems(yaml).map(\.keyPath) == ["listen.port"])
    }
}
