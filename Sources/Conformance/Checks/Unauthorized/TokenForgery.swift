import Crypto
import Foundation
import SignInProtocol

/// Variations of the host's own access token an attacker can make without its key.
enum TokenForgery {
    struct JWTParts {
        var header: [String: JSONValue]
        var claims: [String: JSONValue]
        var signature: Substring
    }

    static func split(_ token: String) -> JWTParts? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = decode(parts[0]), let claims = decode(parts[1]) else { return nil }
        return JWTParts(header: header, claims: claims, signature: parts[2])
    }

    static func decode(_ part: Substring) -> [String: JSONValue]? {
        guard let bytes = Base64URL.decode(String(part)) else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
    }

    static func encode(_ object: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Base64URL.encode(Array((try? encoder.encode(object)) ?? Data()))
    }

    /// The token's claims with `exp` an hour ago (and `iat`/`nbf` before it), its header and signature kept.
    static func expired(_ token: String, now: Date = Date()) -> String? {
        guard var parts = split(token) else { return nil }
        let seconds = Int64(now.timeIntervalSince1970)
        parts.claims["exp"] = .integer(seconds - 3600)
        parts.claims["iat"] = .integer(seconds - 7200)
        if parts.claims["nbf"] != nil { parts.claims["nbf"] = .integer(seconds - 7200) }
        return encode(parts.header) + "." + encode(parts.claims) + "." + parts.signature
    }

    /// The token's header and claims, signed ES256 with a key the host never saw.
    static func foreignSigned(_ token: String) -> String? {
        guard var parts = split(token) else { return nil }
        parts.header["alg"] = .string("ES256")
        let input = encode(parts.header) + "." + encode(parts.claims)
        guard let signature = try? P256.Signing.PrivateKey().signature(for: Data(input.utf8)) else { return nil }
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    /// A token of the same length and alphabet as an opaque one, for hosts whose tokens are not JWTs.
    static func lookalike(_ token: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<max(token.count, 16)).map { _ in alphabet.randomElement()! })
    }
}
