import BridgeStore
import Foundation
import SignInProtocol

/// The names OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07) defines, and its `ds_hash`.
enum NativeSSO {
    /// §3.1: asks for a `device_secret` with the tokens.
    static let scope = "device_sso"
    /// §4.1: the `subject_token_type` of the exchange (RFC 8693 §3).
    static let idTokenType = TokenRequest.TokenExchange.idTokenType
    /// §4.1: the `actor_token_type` of the exchange.
    static let deviceSecretType = TokenRequest.TokenExchange.deviceSecretType
    /// Our `token_type_hint` for a device secret at the revocation endpoint (RFC 7009 §2.1 allows others).
    static let deviceSecretHint = "device_secret"

    static func isGranted(in scope: String) -> Bool { scope.split(separator: " ").contains { $0 == Self.scope } }

    /// §3.4.1 leaves the binding of `ds_hash` to the device secret to the AS; ours is `at_hash`'s construction
    /// (OpenID Connect Core §3.1.3.6), so a client can check it the way it checks `at_hash`.
    static func dsHash(of deviceSecret: String) -> String { IDTokenIssuer.atHash(deviceSecret) }
}

/// The `sid` and `ds_hash` every ID token of one device session carries (draft 07 §3.4.1).
struct DeviceSessionBinding: Sendable, Hashable {
    var sid: String
    var dsHash: String
}

/// A device secret drafted before the code redemption that issues it (draft 07 §3.4.2): 256 random bits, a new
/// `sid`, the client's group. Only its digest is stored, by the redemption itself (`stored`).
struct DeviceSecretDraft: Sendable {
    let secret: SecretToken
    let sid: String
    /// The session the redemption writes when the code was granted `openid` and `device_sso`.
    let stored: DeviceSessionDraft

    /// Nil for a client without an SSO group, which may not have one.
    init?(client: BridgeConfiguration.Client, lifetime: TimeInterval, at now: Date) {
        guard let group = client.ssoGroup else { return nil }
        secret = SecretToken()
        sid = UUID().uuidString.lowercased()
        stored = DeviceSessionDraft(
            digest: secret.digest, sid: sid, clientID: client.id, group: group,
            requiredScope: DeviceSecretContributor.requiredScope, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
    }

    var binding: DeviceSessionBinding { DeviceSessionBinding(sid: sid, dsHash: NativeSSO.dsHash(of: secret.value)) }
}
