import BridgeServer
import Foundation
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func problems(_ yaml: String, environment: [String: String] = [:]) -> [ConfigurationProblem] {
        do {
            _ = try ConfigurationLoader(environment: environment).load(yaml: yaml)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func sampleConfigurationLoadsWithOnlyTheExpectedWarnings() throws {
        let loaded = try ConfigurationLoader(environment: [:]).load(
            file: Self.root.appendingPathComponent("samples/bridge.yaml").path)
        #expect(loaded.configuration.clients.map(\.id) == ["office", "partner-app", "merchant-app", "sso-app-a", "sso-app-b", "files-backend"])
        #expect(loaded.configuration.users.first?.signInName == "demo@example.com")
        #expect(loaded.configuration.authorizationURI == "http://127.0.0.1:8080/oauth2/authorize")
        // Office registers https://localhost, which RFC 8252 §8.3 does not recommend; `profile: office` allows it.
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    /// The server embeds the published file (through a link in its sources), not a copy of it.
    @Test func publishedSchemaIsTheOneTheServerEnforces() throws {
        let file = try String(
            contentsOf: Self.root.appendingPathComponent("schemas/bridge-config.schema.json"), encoding: .utf8)
        #expect(file == ConfigurationLoader.schemaText)
        let link = Self.root.appendingPathComponent("Sources/BridgeServer/Configuration/bridge-config.schema.json").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../../../schemas/bridge-config.schema.json")
    }

    @Test func minimalConfigurationGetsTheDocumentedDefaults() throws {
        let yaml = """
            issuer: https://files.example
            wopi:
              ecosystemUrlTemplate: https://files.example/wopi/ecosystem?access_token={access_token}
              rootContainer: {name: Files, urlTemplate: "https://files.example/wopi/root?access_token={access_token}"}
              wopiSrcPrefixes: [https://files.example/wopi/files/]
            """
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        #expect(configuration.listen.port == 8080)
        #expect(configuration.store.sqlite.path == "data/bridge.sqlite")
        #expect(configuration.wopi.accessTokenLifetimeSeconds == 36000)
        #expect(configuration.clients.isEmpty && configuration.users.isEmpty)
        // The Schibsted SPiD login docs' lifetimes of exchange codes.
        #expect(configuration.exchange.codeLifetimeSeconds == 30)
        #expect(configuration.exchange.sessionLifetimeSeconds == 60)
    }

    static let base = TestBridge.yaml

    @Test(arguments: [
        ("listen: {host: 127.0.0.1, port: 0}", "listen: {host: 127.0.0.1, port: eighty}", "listen.port", "expected integer"),
        ("listen: {host: 127.0.0.1, port: 0}", "listen: {host: 127.0.0.1, port: 70000}", "listen.port", "at most 65535"),
        ("    redirectUris: [https://localhost]", "    redirectUri: [https://localhost]", "clients[0].redirectUri", "not a known key"),
        ("    redirectUris: [https://localhost]", "    redirectUris: [http://files.example/cb]", "clients[0].redirectUris[0]", "http is only allowed"),
        ("  providerId: TPCONTOSO", "  providerId: TP-CONTOSO", "office.providerId", "does not match"),
        ("  providerId: TPCONTOSO", "  providerId: TPCONTOSO\n  additionalChallenges: ['Bearer realm=x']", "office.additionalChallenges[0]", "must not be a Bearer"),
        ("issuer: https://contoso.com", "issuer: http://contoso.com", "issuer", "use https"),
        ("    grants: [authorization_code, refresh_token]", "    grants: [password]", "clients[0].grants[0]", "expected one of"),
        ("    secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7\n", "", "clients[0].secretHash", "is required for a confidential client"),
        ("    passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS", "    passwordHash: hunter2", "users[0].passwordHash", "does not match"),
        ("  wopiSrcPrefixes: [https://contoso.com/wopi/files/]", "  wopiSrcPrefixes: []", "wopi.wopiSrcPrefixes", "must not be empty"),
        ("  ecosystemUrlTemplate: https://contoso.com/wopi/ecosystem?access_token={access_token}", "  ecosystemUrlTemplate: https://contoso.com/wopi/ecosystem", "wopi.ecosystemUrlTemplate", "does not match"),
        ("    grants: [authorization_code, refresh_token]", "    grants: [authorization_code, 'urn:ietf:params:oauth:grant-type:token-exchange']", "clients[0].merchant", "is required for the token-exchange grant"),
        ("users:", "exchange: {codeLifetimeSeconds: 1}\nusers:", "exchange.codeLifetimeSeconds", "at least 5"),
        // OpenID Connect Native SSO draft 07 §3.1: device_sso only for a client of an SSO group.
        ("    grants: [authorization_code, refresh_token]", "    grants: [authorization_code, refresh_token]\n    scopes: [openid, device_sso]", "clients[0].scopes", "needs the client's ssoGroup"),
        ("users:", "tokens: {deviceSecretLifetimeSeconds: 10}\nusers:", "tokens.deviceSecretLifetimeSeconds", "at least 300"),
        // OpenID Connect Core §3.1.2.1: a request without scope is never an OpenID request.
        ("    grants: [authorization_code, refresh_token]", "    grants: [authorization_code, refresh_token]\n    scopes: [openid, wopi]\n    defaultScopes: [openid]", "clients[0].defaultScopes", "must not contain openid"),
        ("    grants: [authorization_code, refresh_token]", "    grants: [authorization_code, refresh_token]\n    defaultScopes: [admin]", "clients[0].defaultScopes", "'admin' is not one of the client's scopes"),
        ("users:", "firstPartyApps: {stepUpSessionLifetimeSeconds: 10}\nusers:", "firstPartyApps.stepUpSessionLifetimeSeconds", "at least 60"),
    ])
    func errorsNameTheirKeyPath(replace: String, with replacement: String, keyPath: String, message: String) {
        let yaml = Self.base.replacingOccurrences(of: replace, with: replacement)
        #expect(yaml != Self.base, "the test's replacement did not apply")
        let problems = Self.problems(yaml)
        let match = problems.first { $0.keyPath == keyPath }
        #expect(match != nil, "expected a problem at \(keyPath), got \(problems)")
        #expect(match?.message.contains(message) == true, "\(problems)")
    }

    @Test func problemsCarryTheirYAMLLine() {
        let yaml = Self.base.replacingOccurrences(of: "port: 0}", with: "port: -1}")
        let problem = Self.problems(yaml).first
        #expect(problem?.keyPath == "listen.port")
        #expect(problem?.line == 2)
    }

    @Test func environmentOverridesAreValidatedAndNamed() throws {
        let problems = Self.problems(Self.base, environment: ["SIGNIN_BRIDGE_PORT": "eighty"])
        #expect(problems.map(\.keyPath) == ["listen.port"])
        #expect(problems.first?.source == "SIGNIN_BRIDGE_PORT")
        #expect(problems.first?.description.contains("(from SIGNIN_BRIDGE_PORT)") == true)
        let configuration = try ConfigurationLoader(environment: ["SIGNIN_BRIDGE_PORT": "9091", "SIGNIN_BRIDGE_LOG_FORMAT": "json"])
            .load(yaml: Self.base).configuration
        #expect(configuration.listen.port == 9091)
        #expect(configuration.log.format == "json")
    }

    @Test func brokenYAMLAndDuplicatesAreReported() {
        #expect(Self.problems("issuer: [unclosed").first?.message.contains("not valid YAML") == true)
        #expect(Self.problems("").first?.message == "the configuration is empty")
        #expect(Self.problems("issuer: a\nissuer: b").first?.message.contains("duplicated key(s): 'issuer'") == true)
        var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<9 {
            laughs += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(Self.problems(laughs).first?.message.contains("more than 100000 values") == true)
        let twice = Self.base + "\n  - id: alice\n    signInName: ALICE@contoso.com\n    passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS"
        #expect(Set(Self.problems(twice).map(\.keyPath)) == ["users[1].id", "users[1].signInName"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        let yaml = Self.base
            .replacingOccurrences(of: "port: 0}", with: "port: x}")
            .replacingOccurrences(of: "  providerId: TPCONTOSO", with: "  providerId: 'a b'")
        #expect(Set(Self.problems(yaml).map(\.keyPath)) == ["listen.port", "office.providerId"])
    }
}
