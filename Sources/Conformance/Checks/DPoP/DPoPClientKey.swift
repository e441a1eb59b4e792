import Crypto
import Foundation
import SignInProtocol

/// A client's DPoP key pair (RFC 9449 §4.2): it signs one proof per request, and a check that needs a broken proof
/// asks for exactly one flaw.
struct DPoPClientKey: Sendable {
    /// The one thing wrong with a proof, for the checks that must see it refused (RFC 9449 §4.3).
    enum Flaw: Sendable, Hashable {
        case none
        /// Signed by another key than the one in `jwk` (§4.3 item 6).
        case signedByAnotherKey
        /// `jwk` carries the private key `d` (§4.3 item 7).
        case privateKeyInJWK
    }

    private let key: P256.Signing.PrivateKey

    init() { key = P256.Signing.PrivateKey() }

    /// The public JWK's members (RFC 7518 §6.2.1).
    var publicJWK: [(String, String)] { SignedJWT.publicJWK(key.publicKey) }

    /// RFC 7638's thumbprint: what `cnf.jkt` and `dpop_jkt` name.
    var thumbprint: String {
        (try? JWKThumbprint.sha256(of: Dictionary(uniqueKeysWithValues: publicJWK.map { ($0.0, JSONValue.string($0.1)) }))) ?? ""
    }

    /// A proof for one request (RFC 9449 §4.2): `htm`, `htu` without query and fragment, `iat`, a fresh `jti`;
    /// `ath` when an access token goes with it (§4.2: base64url of its SHA-256), `nonce` when the server sent one.
    func proof(
        method: String, uri: String, accessToken: String? = nil, nonce: String? = nil, issuedAt: Date = Date(),
        flaw: Flaw = .none
    ) -> String {
        var jwk = publicJWK
        if flaw == .privateKeyInJWK { jwk.append(("d", Base64URL.encode(key.rawRepresentation))) }
        let header = [
            ("typ", JSONText.quoted("dpop+jwt")), ("alg", JSONText.quoted("ES256")),
            ("jwk", SignedJWT.object(jwk.map { ($0.0, JSONText.quoted($0.1)) })),
        ]
        var claims = [
            ("jti", JSONText.quoted(Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255) }))),
            ("htm", JSONText.quoted(method)), ("htu", JSONText.quoted(Self.targetURI(uri))),
            ("iat", String(Int(issuedAt.timeIntervalSince1970))),
        ]
        if let accessToken { claims.append(("ath", JSONText.quoted(Self.accessTokenHash(accessToken)))) }
        if let nonce { claims.append(("nonce", JSONText.quoted(nonce))) }
        return SignedJWT.es256(header: header, claims: claims, signedBy: flaw == .signedByAnotherKey ? P256.Signing.PrivateKey() : key)
    }

    /// RFC 9449 §4.2: `ath` is base64url(SHA-256(ASCII of the access token)).
    static func accessTokenHash(_ token: String) -> String { Base64URL.encode(Array(SHA256.hash(data: Array(token.utf8)))) }

    /// `htu` is the request's URI without query and fragment (RFC 9449 §4.2).
    static func targetURI(_ uri: String) -> String {
        String(uri.prefix { $0 != "?" && $0 != "#" })
    }
}
