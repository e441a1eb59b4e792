import BridgeStore
import Foundation
import SignInProtocol

/// The `device_secret` of a code granted `openid` and `device_sso` to a client of an SSO group (Native SSO draft 07
/// §3.4.2). Its device session is drafted before the redemption and written by it, in the same transaction: the
/// code is redeemed with its session or not at all.
struct DeviceSecretContributor: TokenResponseContributor {
    /// §3.4.2: the device secret goes with an ID token, so only a code granted both.
    static let requiredScope = [OpenIDScope.openid, NativeSSO.scope]

    let lifetime: TimeInterval

    /// Off without ID tokens: the secret is bound to the ID token's `sid` and `ds_hash`.
    init?(_ dependencies: ContributorDependencies) {
        guard dependencies.idTokens != nil else { return nil }
        lifetime = dependencies.deviceSecretLifetime
    }

    func draft(_ drafts: inout RedemptionDrafts, for client: AuthenticatedClient, at now: Date) {
        drafts.deviceSecret = DeviceSecretDraft(client: client.client, lifetime: lifetime, at: now)
    }

    /// The store's own rule (`DeviceSessionDraft.isWritten(for:)`): the secret goes out exactly when its session
    /// was written.
    func applies(to redeemed: RedeemedCode) -> Bool {
        redeemed.drafts.deviceSecret?.stored.isWritten(for: redeemed.code) ?? false
    }

    func contribute(to answer: inout ContributedResponse, from redeemed: RedeemedCode) throws(OAuthError) {
        guard let device = redeemed.drafts.deviceSecret else { return }
        answer.response.additionalFields["device_secret"] = .string(device.secret.value)
        answer.deviceSession = device.binding
    }
}
