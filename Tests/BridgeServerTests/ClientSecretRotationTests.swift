@testable import BridgeServer
import Foundation
import SignInProtocol
import Testing

/// A client with several secrets, each with an optional expiry: any live one authenticates, an expired one is
/// `invalid_client`, and `config check` says what to clean up.
@Suite("Client secret rotation")
struct ClientSecretRotationTests {
    static let oldHash = "sha256:ea77193cc4e6f18656f3130e296203880c4b9b3772afc855211b82fdd46e9185"  // "secret-one"
    static let newHash = "sha256:cebdf378f2d2bd60d3e3693349e8f20f329daf11a276f849996f0a6377e2155b"  // "secret-two"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

    static func yaml(secrets: String) -> String {
        TestBridge.yaml.replacingOccurrences(
            of: "    secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7\n",
            with: secrets)
    }

    static func authenticate(_ secret: String, yaml: String) throws -> String? {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        let authenticator = ClientAuthenticator(clients: configuration.clients, now: { now })
        let form = FormParameters(["client_id": "office", "client_secret": secret])
        do throws(OAuthError) {
            _ = try authenticator.authenticate(form: form, authorization: nil)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func bothLiveSecretsWorkAndAnExpiredOneDoesNot() throws {
        let yaml = Self.yaml(secrets: """
                secrets:
                  - {hash: "\(Self.oldHash)", expiresAt: "2027-01-15T07:59:59Z"}
                  - {hash: "\(Self.newHash)", expiresAt: "2027-06-01T00:00:00Z"}

            """)
        #expect(yaml != TestBridge.yaml)
        #expect(try Self.authenticate("secret-two", yaml: yaml) == nil)
        #expect(try Self.authenticate("secret-one", yaml: yaml) == "invalid_client: the client secret has expired")
        #expect(try Self.authenticate("secret-three", yaml: yaml) == "invalid_client: client authentication failed")
    }

    @Test func secretHashAndSecretsAreBothLive() throws {
        let yaml = Self.yaml(secrets: """
                secretHash: \(Self.oldHash)
                secrets: [{hash: "\(Self.newHash)"}]

            """)
        #expect(try Self.authenticate("secret-one", yaml: yaml) == nil)
        #expect(try Self.authenticate("secret-two", yaml: yaml) == nil)
        #expect(try Self.authenticate("office-demo-secret", yaml: yaml) != nil)
    }

    @Test func configCheckWarnsAboutAnExpiredSecretAndAThirdLiveOne() throws {
        let yaml = Self.yaml(secrets: """
                secretHash: \(Self.oldHash)
                secrets:
                  - {hash: "\(Self.newHash)", expiresAt: "2020-01-01T00:00:00Z"}
                  - {hash: "\(Self.newHash)"}
                  - {hash: "\(Self.oldHash)", expiresAt: "2099-01-01T00:00:00Z"}

            """)
        let warnings = try ConfigurationLoader(environment: [:]).load(yaml: yaml).warnings
        let expired = warnings.first { $0.keyPath == "clients[0].secrets[0].expiresAt" }
        #expect(expired?.message.contains("expired at 2020-01-01T00:00:00Z") == true, "\(warnings)")
        let tooMany = warnings.first { $0.keyPath == "clients[0].secrets" }
        #expect(tooMany?.message.contains("3 live secrets") == true, "\(warnings)")
    }

    @Test(arguments: [
        ("    secrets: [{hash: \"sha256:abc\"}]\n", "clients[0].secrets[0].hash", "does not match"),
        ("    secrets: [{hash: \"\(oldHash)\", expiresAt: \"2027-13-01T00:00:00Z\"}]\n", "clients[0].secrets[0].expiresAt", "not a valid UTC time"),
        ("    secrets: [{hash: \"\(oldHash)\", expiresAt: \"tomorrow\"}]\n", "clients[0].secrets[0].expiresAt", "does not match"),
        ("    secrets: []\n", "clients[0].secrets", "must not be empty"),
    ])
    func badSecretsAreNamed(secrets: String, keyPath: String, message: String) {
        let problems = ConfigurationTests.problems(Self.yaml(secrets: secrets))
        let match = problems.first { $0.keyPath == keyPath }
        #expect(match?.message.contains(message) == true, "\(problems)")
    }
}
