import Foundation
import JWTKit

/// Another server's JWKS (RFC 7517 §5), read with a size limit and refused whole when it is not a set of public
/// signing keys we would accept: a key set that offers `alg: none` or a symmetric key (`kty: oct`) is a provider
/// misconfigured or an attacker's, and a verifier that took either could be made to accept a token anyone can forge
/// (RFC 8725 §2.1, §3.1).
struct KeySetDocument: Sendable {
    /// The largest JWKS read: Entra ID's, with its certificate chains, is under 20 KiB.
    static let limit = 64 * 1024

    let keys: JWTKeyCollection
    let kids: Set<String>

    /// Why a fetched document was not taken; the keys kept before it stay in use.
    enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case tooLarge(Int)
        case notJSON
        case notAKeySet
        case unsafeKey(kid: String, reason: String)
        case noUsableKey

        var description: String {
            switch self {
            case .tooLarge(let bytes): "the JWKS has \(bytes) bytes, over the limit of \(KeySetDocument.limit)"
            case .notJSON: "the JWKS is not JSON"
            case .notAKeySet: "the JWKS has no \"keys\" array of objects (RFC 7517 §5)"
            case .unsafeKey(let kid, let reason): "the JWKS offers key \"\(kid.prefix(64))\" \(reason) (RFC 8725 §3.1)"
            case .noUsableKey: "the JWKS has no signing key with a kid that this server can use"
            }
        }

        /// A short name for metrics and logs.
        var label: String {
            switch self {
            case .tooLarge: "too_large"
            case .notJSON: "not_json"
            case .notAKeySet: "not_a_key_set"
            case .unsafeKey: "unsafe_key"
            case .noUsableKey: "no_usable_key"
            }
        }
    }

    /// The members each key is judged by before jwt-kit reads it (jwt-kit refuses a whole set over one key type it
    /// does not know, so the unsafe ones are named here first).
    private struct KeyMembers: Decodable {
        var kty: String?
        var alg: String?
        var kid: String?
        var use: String?
    }

    private struct SetMembers: Decodable {
        var keys: [KeyMembers]
    }

    static func read(_ bytes: [UInt8]) async throws(Refusal) -> KeySetDocument {
        guard bytes.count <= limit else { throw .tooLarge(bytes.count) }
        let data = Data(bytes)
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else { throw .notJSON }
        guard let members = try? JSONDecoder().decode(SetMembers.self, from: data) else { throw .notAKeySet }
        for key in members.keys {
            let kid = key.kid ?? "(no kid)"
            if key.alg?.lowercased() == "none" { throw .unsafeKey(kid: kid, reason: "with alg none") }
            if key.kty == "oct" { throw .unsafeKey(kid: kid, reason: "that is symmetric (kty oct)") }
            if let alg = key.alg, alg.hasPrefix("HS") { throw .unsafeKey(kid: kid, reason: "for \(alg), a symmetric algorithm") }
        }
        // Encryption keys (`use: enc`, RFC 7517 §4.2) and key types jwt-kit cannot read are left out, not refused.
        let signing = members.keys.indices.filter { members.keys[$0].use != "enc" && ["RSA", "EC", "OKP"].contains(members.keys[$0].kty) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let all = object["keys"] as? [Any]
        else { throw .notAKeySet }
        let collection = JWTKeyCollection()
        var kids = Set<String>()
        for index in signing {
            guard let kid = members.keys[index].kid, let one = try? JSONSerialization.data(withJSONObject: all[index]),
                let jwk = try? JSONDecoder().decode(JWK.self, from: one), (try? await collection.add(jwk: jwk)) != nil
            else { continue }
            kids.insert(kid)
        }
        guard !kids.isEmpty else { throw .noUsableKey }
        return KeySetDocument(keys: collection, kids: kids)
    }
}
