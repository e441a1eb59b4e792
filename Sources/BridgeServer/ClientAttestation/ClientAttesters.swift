import Crypto
import CryptoExtras
import Foundation
import SignInProtocol

/// The Client Attesters this server trusts and their public keys, from `clientAttestation.attesters`. How trust in an
/// attester is established is left to the deployment (draft-ietf-oauth-attestation-based-client-auth-11 §9.8); here
/// it is pre-configured keys, given inline as JWKs or in a PEM, JWK or JWK Set file.
struct ClientAttesters: Sendable {
    struct Attester: Sendable, Hashable {
        let issuer: String
        let keys: [[String: JSONValue]]
        /// The client_ids it may vouch for; nil: every client without a secret.
        let clients: Set<String>?

        init(issuer: String, keys: [[String: JSONValue]], clients: Set<String>? = nil) {
            self.issuer = issuer
            self.keys = keys
            self.clients = clients
        }
    }

    /// A configured attester that cannot be used; `keyPath` names it for `config check`.
    struct Problem: Error, Sendable, Hashable {
        let keyPath: String
        let message: String
    }

    let attesters: [Attester]

    var isEmpty: Bool { attesters.isEmpty }

    init(attesters: [Attester]) {
        self.attesters = attesters
    }

    /// Reads every attester's keys (and key file); every key must be a public key `DPoPProofKey` can verify with.
    init(configuration: BridgeConfiguration.ClientAttestation) throws(Problem) {
        var loaded: [Attester] = []
        for (index, attester) in configuration.attesters.enumerated() {
            let path = "clientAttestation.attesters[\(index)]"
            var keys = (attester.jwks ?? []).map { $0.mapValues(JSONValue.string) }
            if let file = attester.keyFile {
                do throws(Problem) {
                    keys += try Self.keys(inFile: file)
                } catch {
                    throw Problem(keyPath: "\(path).keyFile", message: error.message)
                }
            }
            guard !keys.isEmpty else { throw Problem(keyPath: path, message: "has no key: set jwks or keyFile") }
            for (keyIndex, key) in keys.enumerated() where DPoPProofKey.algorithms(for: key).isEmpty {
                throw Problem(
                    keyPath: "\(path)\(keyIndex < (attester.jwks?.count ?? 0) ? ".jwks[\(keyIndex)]" : ".keyFile")",
                    message: "is not a public EC P-256/P-384, RSA (2048 bits or more) or Ed25519 key")
            }
            loaded.append(Attester(issuer: attester.issuer, keys: keys, clients: attester.clients.map(Set.init)))
        }
        attesters = loaded
    }

    /// The keys an attestation may be verified with: the attester named by `iss` when present (nil when no attester
    /// has that name), and among its keys the one named by `kid` when present.
    func candidateKeys(issuer: String?, keyID: String?) -> [(attester: String, key: [String: JSONValue])] {
        let named = issuer.map { name in attesters.filter { $0.issuer == name } } ?? attesters
        return named.flatMap { attester in
            attester.keys.filter { key in keyID == nil || key["kid"] == keyID.map(JSONValue.string) }
                .map { (attester: attester.issuer, key: $0) }
        }
    }

    /// Whether `attester` may vouch for `client`: a client its `clients` list names, or, when it has no list, a client
    /// without a secret (public, or `attestation.required`). How far an attester is trusted is the deployment's to
    /// say (draft-ietf-oauth-attestation-based-client-auth-11 §9.8); an attester for the host's apps is not thereby
    /// a way into its confidential clients.
    func mayVouch(_ attester: String, for client: BridgeConfiguration.Client) -> Bool {
        attesters.contains { candidate in
            guard candidate.issuer == attester else { return false }
            guard let clients = candidate.clients else { return client.allSecrets.isEmpty }
            return clients.contains(client.id)
        }
    }

    /// A PEM public key (SubjectPublicKeyInfo), a JWK or a JWK Set.
    static func keys(inFile path: String) throws(Problem) -> [[String: JSONValue]] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
            let text = String(data: data, encoding: .utf8)
        else { throw Problem(keyPath: "", message: "cannot read \(path) (missing, unreadable or over 64 KiB)") }
        if text.contains("-----BEGIN") {
            guard let key = PEMPublicKey.jwk(fromPEM: text) else {
                throw Problem(keyPath: "", message: "\(path) is not a PEM public key of a kind this server verifies with")
            }
            return [key]
        }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw Problem(keyPath: "", message: "\(path) is neither PEM nor a JSON object (a JWK or a JWK Set)")
        }
        guard case .array(let set)? = object["keys"] else { return [object] }
        return set.compactMap { if case .object(let key) = $0 { key } else { nil } }
    }
}

/// A PEM public key as the JWK of the same key (RFC 7518 §6.2, §6.3; RFC 8037 §2).
enum PEMPublicKey {
    static func jwk(fromPEM pem: String) -> [String: JSONValue]? {
        func ec(_ curve: String, _ x963: Data) -> [String: JSONValue] {
            let coordinates = Array(x963.dropFirst())
            let half = coordinates.count / 2
            return [
                "kty": .string("EC"), "crv": .string(curve), "x": .string(Base64URL.encode(Array(coordinates[..<half]))),
                "y": .string(Base64URL.encode(Array(coordinates[half...]))),
            ]
        }
        if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) { return ec("P-256", key.x963Representation) }
        if let key = try? P384.Signing.PublicKey(pemRepresentation: pem) { return ec("P-384", key.x963Representation) }
        if let key = try? Curve25519.Signing.PublicKey(pemRepresentation: pem) {
            return ["kty": .string("OKP"), "crv": .string("Ed25519"), "x": .string(Base64URL.encode(Array(key.rawRepresentation)))]
        }
        if let key = try? _RSA.Signing.PublicKey(pemRepresentation: pem), let primitives = try? key.getKeyPrimitives() {
            return [
                "kty": .string("RSA"), "n": .string(Base64URL.encode(Array(primitives.modulus))),
                "e": .string(Base64URL.encode(Array(primitives.publicExponent))),
            ]
        }
        return nil
    }
}
