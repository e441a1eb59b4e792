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

    /// Office's client with its `secretHash` replaced by `secrets`, the client's keys written as YAML.
    static func configuration(secrets: String) -> ConfigurationBuilder {
        ConfigurationBuilder.testBridge.removing("clients[office].secretHash").merging(secrets, into: "clients[office]")
    }

    static func authenticate(_ secret: String, configuration: ConfigurationBuilder) throws -> String? {
        let configuration = try configuration.configuration
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
        let configuration = Self.configuration(secrets: """
                secrets:
                  - {hash: "\(Self.oldHash)", expiresAt: "2027-01-15T07:59:59Z"}
                  - {hash: "\(Self.newHash)", expiresAt: "2027-06-01T00:00:00Z"}

            """)
        #expect(try Self.authenticate("secret-two", configuration: configuration) == nil)
        #expect(try Self.authenticate("secret-one", configuration: configuration) == "invalid_client: the client secret has expired")
        #expect(try Self.authenticate("secret-three", configuration: configuration) == "invalid_client: client authentication failed")
    }

    @Test func secretHashAndSecretsAreBothLive() throws {
        let configuration = Self.configuration(secrets: """
                secretHash: \(Self.oldHash)
                secrets: [{hash: "\(Self.newHash)"}]

            """)
        #expect(try Self.authenticate("secret-one", configuration: configuration) == nil)
        #expect(try Self.authenticate("secret-two", configuration: configuration) == nil)
        #expect(try Self.authenticate("office-demo-secret", configuration: configuration) != nil)
    }

    @Test func configCheckWarnsAboutAnExpiredSecretAndAThirdLiveOne() throws {
        let configuration = Self.configuration(secrets: """
                secretHash: \(Self.oldHash)
                secrets:
                  - {hash: "\(Self.newHash)", expiresAt: "2020-01-01T00:00:00Z"}
                  - {hash: "\(Self.newHash)"}
                  - {hash: "\(Self.oldHash)", expiresAt: "2099-01-01T00:00:00Z"}

            """)
        let warnings = try configuration.load().warnings
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
    func badSecretsAreNamed(secrets: String, keyPath: String, message: String) throws {
        let problems = ConfigurationTests.problems(try Self.configuration(secrets: secrets).yaml())
        let match = problems.first { $0.keyPath == keyPath }
        #expect(match?.message.contains(message) == true, "\(problems)")
    }
}
