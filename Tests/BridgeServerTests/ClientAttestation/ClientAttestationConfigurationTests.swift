import Crypto
import CryptoExtras
import Foundation
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// `clientAttestation` and `clients[].attestation`: what `config check` accepts and what it names.
@Suite("Client attestation configuration")
struct ClientAttestationConfigurationTests {
    static func yaml(_ attesters: String, clientExtra: String = "    attestation: {required: true}\n") -> String {
        """
        issuer: https://as.example
        clients:
          - id: attested-service
        \(clientExtra)    redirectUris: [https://service.example/cb]
            grants: [client_credentials]
        \(attesters)
        """
    }

    static func temporaryFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("attester-\(UUID().uuidString).pem")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aClientThatRequiresAttestationNeedsNoSecretButAnAttester() throws {
        let attesters = ClientAttestationMaker().attestersYAML
        let loaded = try ConfigurationLoader(environment: [:]).load(yaml: Self.yaml(attesters)).configuration
        #expect(loaded.clients[0].requiresAttestation)
        #expect(loaded.clientAttestation.clockSkewSeconds == 60)
        let problems = ConfigurationTests.problems(Self.yaml(""))
        #expect(problems.contains { $0.keyPath == "clients[0].attestation.required" && $0.message.contains("needs clientAttestation.attesters") }, "\(problems)")
        let secretless = ConfigurationTests.problems(Self.yaml(attesters, clientExtra: ""))
        #expect(secretless.contains { $0.keyPath == "clients[0].secretHash" }, "\(secretless)")
    }

    /// A PEM key file (as an attester service hands out) is read as the JWK of the same key.
    @Test(arguments: ["P-256", "P-384", "Ed25519", "RSA"])
    func aPEMKeyFileIsTheSameKeyAsItsJWK(kind: String) throws {
        let pem: String
        switch kind {
        case "P-256": pem = P256.Signing.PrivateKey().publicKey.pemRepresentation
        case "P-384": pem = P384.Signing.PrivateKey().publicKey.pemRepresentation
        case "Ed25519": pem = Curve25519.Signing.PrivateKey().publicKey.pemRepresentation
        default: pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.pemRepresentation
        }
        let keys = try ClientAttesters.keys(inFile: try Self.temporaryFile(pem))
        #expect(keys.count == 1)
        #expect(!DPoPProofKey.algorithms(for: keys[0]).isEmpty, "\(keys)")
        let attesters = "clientAttestation: {attesters: [{issuer: a, keyFile: \(try Self.temporaryFile(pem))}]}"
        #expect(ConfigurationTests.problems(Self.yaml(attesters)).isEmpty)
    }

    @Test func aP256PEMGivesItsCoordinates() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let jwk = try #require(PEMPublicKey.jwk(fromPEM: key.pemRepresentation))
        #expect(jwk == ClientAttestationMaker.jwk(key).mapValues(JSONValue.string))
    }

    @Test(arguments: [
        ("clientAttestation: {attesters: [{issuer: a}]}", "clientAttestation.attesters[0]", "has no key"),
        ("clientAttestation: {attesters: [{issuer: a, keyFile: /nonexistent/key.pem}]}", "clientAttestation.attesters[0].keyFile", "cannot read"),
        ("clientAttestation: {attesters: [{issuer: a, jwks: [{kty: EC, crv: P-256, x: eA, y: eQ}]}]}", "clientAttestation.attesters[0].jwks[0]", "is not a public"),
        ("clientAttestation: {attesters: [{issuer: a, jwks: [{kty: oct, k: c2VjcmV0}]}]}", "clientAttestation.attesters[0].jwks[0]", "is not a public"),
        ("clientAttestation: {clockSkewSeconds: 9999}", "clientAttestation.clockSkewSeconds", "at most"),
    ])
    func badAttestersAreNamed(attesters: String, keyPath: String, message: String) {
        let problems = ConfigurationTests.problems(Self.yaml(attesters, clientExtra: "    public: true\n"))
        #expect(problems.contains { $0.keyPath == keyPath && $0.message.contains(message) }, "\(problems)")
    }

    /// §9.8: `config check` warns on an attester without a `clients` scope and refuses a scope naming no client.
    @Test func anUnscopedAttesterIsWarnedAboutAndAScopeMustNameClients() throws {
        let attesters = ClientAttestationMaker().attestersYAML
        let unscoped = try ConfigurationLoader(environment: [:]).load(yaml: Self.yaml(attesters))
        #expect(unscoped.warnings.contains { $0.keyPath == "clientAttestation.attesters[0]" && $0.message.contains("clients") },
                "\(unscoped.warnings)")
        let scoped = try ConfigurationLoader(environment: [:]).load(yaml: Self.yaml(attesters + "\n      clients: [attested-service]"))
        #expect(!scoped.warnings.contains { $0.keyPath.hasPrefix("clientAttestation") }, "\(scoped.warnings)")
        #expect(scoped.configuration.clientAttestation.attesters[0].clients == ["attested-service"])
        let problems = ConfigurationTests.problems(Self.yaml(attesters + "\n      clients: [nobody]"))
        #expect(problems.contains { $0.keyPath == "clientAttestation.attesters[0].clients" && $0.message.contains("nobody") }, "\(problems)")
    }

    @Test func aFileThatIsNeitherPEMNorJSONIsNamed() throws {
        let path = try Self.temporaryFile("not a key")
        let attesters = "clientAttestation: {attesters: [{issuer: a, keyFile: \(path)}]}"
        let problems = ConfigurationTests.problems(Self.yaml(attesters))
        #expect(problems.contains { $0.keyPath == "clientAttestation.attesters[0].keyFile" && $0.message.contains("neither PEM nor") }, "\(problems)")
    }
}
