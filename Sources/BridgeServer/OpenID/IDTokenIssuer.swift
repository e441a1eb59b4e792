import Crypto
import Foundation
import JWTKit
import SignInProtocol

/// The claims of an OpenID Connect ID token (OpenID Connect Core §2), as this server writes them. jwt-kit reads them
/// back (`verifiedHint`, the tests); what to check about them is the caller's, so `verify` does nothing.
struct IDTokenClaims: JWTPayload, Hashable {
    var iss: String
    var sub: String
    var aud: String
    /// The client the token was issued to; OpenID Connect Core §2 allows it for a single audience too, and
    /// clients that check it compare it with their own id.
    var azp: String
    var exp: Int64
    var iat: Int64
    var auth_time: Int64?
    var nonce: String?
    var at_hash: String?
    /// Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 §3.4.1): the device session and the hash
    /// of its device secret.
    var sid: String?
    var ds_hash: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The algorithms an ID token can be signed with. RS256 is the default: OpenID Connect Core §15.1 makes it
/// mandatory to implement, and Dynamic Client Registration §2 makes it the default `id_token_signed_response_alg`.
public enum IDTokenAlgorithm: String, Sendable, Codable, CaseIterable {
    case rs256 = "RS256"
    case es256 = "ES256"
}

/// Signs ID tokens with the first key of the set of the client's algorithm (`kid` in the header, `typ` JWT), with
/// the audience being the client (OpenID Connect Core §3.1.3.7).
struct IDTokenIssuer: Sendable {
    let keys: SigningKeySet
    let issuer: String
    let lifetime: TimeInterval

    init(keys: SigningKeySet, issuer: String, lifetime: TimeInterval) {
        self.keys = keys
        self.issuer = issuer
        self.lifetime = lifetime
    }

    /// Discovery lists RS256 first (OpenID Connect Discovery 1.0 §3: "RS256 MUST be included").
    static let algorithms = IDTokenAlgorithm.allCases.map(\.rawValue)

    func sign(_ claims: IDTokenClaims, algorithm: IDTokenAlgorithm = .rs256) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = try encoder.encode(claims)
        switch algorithm {
        case .rs256: return try keys.snapshot.idTokenRS256.sign(payload: payload)
        case .es256: return try keys.snapshot.idTokenES256.sign(payload: payload)
        }
    }

    /// The ID token for a code redeemed by `clientID`: `sub` the user, `nonce` and `auth_time` from the request,
    /// `at_hash` of the access token issued with it.
    func idToken(
        subject: String, clientID: String, nonce: String?, authTime: Date?, accessToken: String?,
        algorithm: IDTokenAlgorithm, deviceSession: DeviceSessionBinding? = nil, at now: Date
    ) throws -> String {
        let iat = Int64(now.timeIntervalSince1970.rounded(.down))
        return try sign(
            IDTokenClaims(
                iss: issuer, sub: subject, aud: clientID, azp: clientID, exp: iat + Int64(lifetime), iat: iat,
                auth_time: authTime.map { Int64($0.timeIntervalSince1970.rounded(.down)) }, nonce: nonce,
                at_hash: accessToken.map(Self.atHash), sid: deviceSession?.sid, ds_hash: deviceSession?.dsHash),
            algorithm: algorithm)
    }

    /// OpenID Connect Core §3.1.3.6: the left half of the SHA-256 (the hash of RS256 and ES256 alike) of the token's ASCII bytes, base64url-encoded.
    static func atHash(_ accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(accessToken.utf8))).prefix(16))
    }

    /// The claims of one of our own ID tokens (`id_token_hint`, OpenID Connect RP-Initiated Logout 1.0 §2; the
    /// subject token of a Native SSO exchange): signed by a key of this set (jwt-kit checks the signature with the key
    /// the `kid` names) and issued by us. Expiry is not checked: the specification lets the OP accept an expired
    /// hint, and logging out is harmless; a Native SSO exchange is bounded by its device secret's life instead.
    func verifiedHint(_ token: String) async -> IDTokenClaims? {
        guard token.utf8.count <= 8192, let claims = try? await keys.collection.verify(token, as: IDTokenClaims.self),
            claims.iss == issuer
        else { return nil }
        return claims
    }
}
