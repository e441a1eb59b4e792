import BridgeServer
import Foundation
import Testing

/// Every URL the server advertises follows the issuer, and an issuer left out follows the listening address.
@Suite("URLs derived from the issuer")
struct DerivedURLsTests {
    static let sample = ConfigurationTests.root.appendingPathComponent("samples/bridge.yaml").path

    static func advertised(_ configuration: BridgeConfiguration) -> [String] {
        [
            configuration.issuer, configuration.authorizationURI, configuration.tokenIssuanceURI,
            configuration.wopi.ecosystemUrlTemplate, configuration.wopi.rootContainer.urlTemplate,
        ] + configuration.wopi.wopiSrcPrefixes
    }

    @Test func theSampleDerivesEveryURLFromTheListeningAddress() throws {
        let loaded = try ConfigurationLoader(environment: [:]).load(file: Self.sample)
        #expect(
            Self.advertised(loaded.configuration) == [
                "http://127.0.0.1:8080", "http://127.0.0.1:8080/oauth2/authorize", "http://127.0.0.1:8080/oauth2/token",
                "http://127.0.0.1:8080/wopi/ecosystem?access_token={access_token}",
                "http://127.0.0.1:8080/wopi/containers/root?access_token={access_token}",
                "http://127.0.0.1:8080/wopi/files/",
            ])
        #expect(loaded.configuration.wopi.rootContainer.name == "Demo files")
    }

    @Test func aPortFromTheCommandLineOrTheEnvironmentMovesThemAll() throws {
        let fromCommandLine = try ConfigurationLoader(environment: [:], listenPort: 9090).load(file: Self.sample)
        let fromEnvironment = try ConfigurationLoader(environment: ["SIGNIN_BRIDGE_PORT": "9090"]).load(file: Self.sample)
        for loaded in [fromCommandLine, fromEnvironment] {
            let urls = Self.advertised(loaded.configuration)
            #expect(urls.allSatisfy { $0.hasPrefix("http://127.0.0.1:9090") }, "\(urls)")
            #expect(!loaded.warnings.contains { $0.keyPath == "issuer" }, "\(loaded.warnings)")
        }
        let host = try ConfigurationLoader(environment: [:], listenHost: "::1", listenPort: 9091).load(file: Self.sample)
        #expect(host.configuration.wopi.wopiSrcPrefixes == ["http://[::1]:9091/wopi/files/"])
    }

    @Test func anExplicitIssuerStaysAndWopiURLsFollowIt() throws {
        let yaml = "issuer: https://files.example/base/\nlisten: {host: 0.0.0.0, port: 9000}\n"
        let configuration = try ConfigurationLoader(environment: [:], listenPort: 9090).load(yaml: yaml).configuration
        #expect(configuration.issuer == "https://files.example/base/")
        #expect(configuration.wopi.ecosystemUrlTemplate == "https://files.example/base/wopi/ecosystem?access_token={access_token}")
        #expect(configuration.wopi.wopiSrcPrefixes == ["https://files.example/base/wopi/files/"])
        #expect(configuration.wopi.rootContainer.name == "Files")
        #expect(configuration.listen.port == 9090)
    }

    @Test func anExplicitLoopbackIssuerOnAnotherPortIsSaidOnceNamingBoth() throws {
        let yaml = "issuer: http://127.0.0.1:8080\n"
        let loaded = try ConfigurationLoader(environment: [:], listenPort: 9090).load(yaml: yaml)
        let issuerWarnings = loaded.warnings.filter { $0.keyPath == "issuer" }
        #expect(issuerWarnings.count == 1)
        #expect(issuerWarnings.first?.message.contains("http://127.0.0.1:8080") == true)
        #expect(issuerWarnings.first?.message.contains("http://127.0.0.1:9090") == true)
        // Where they agree, or the issuer is a public https origin behind a proxy, nothing is said.
        for (yaml, port) in [("issuer: http://localhost:9090\n", 9090), ("issuer: https://files.example\n", 9090)] {
            let quiet = try ConfigurationLoader(environment: [:], listenPort: port).load(yaml: yaml)
            #expect(!quiet.warnings.contains { $0.keyPath == "issuer" }, "\(quiet.warnings)")
        }
    }

    @Test func anIssuerCannotBeDerivedFromAPublicListeningAddress() {
        let problems = ConfigurationTests.problems("listen: {host: 10.1.2.3, port: 80}\n")
        #expect(problems.contains { $0.keyPath == "issuer" && $0.message.contains("is required") }, "\(problems)")
    }
}

/// `profile: office` on a client excuses exactly Office's stop URL; other clients keep the warning.
@Suite("Client profiles in the configuration")
struct ClientProfileConfigurationTests {
    @Test func onlyTheOfficeProfileRegistersHttpsLocalhostQuietly() throws {
        let office = ConfigurationBuilder.testBridge.client("office", setting: "profile", to: "office")
        #expect(try office.load().warnings.isEmpty)
        let strict = try ConfigurationLoader(environment: [:]).load(yaml: TestBridge.yaml)
        #expect(strict.warnings.map(\.keyPath) == ["clients[0].redirectUris[0]"])
        let unknown = ConfigurationBuilder.testBridge.client("office", setting: "profile", to: "lenient")
        #expect(ConfigurationTests.problems(try unknown.yaml()).contains { $0.keyPath == "clients[0].profile" })
    }
}
