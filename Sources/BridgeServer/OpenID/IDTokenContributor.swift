import BridgeStore
import Foundation
import SignInProtocol

/// The ID token of a code requested with `scope=openid` (OpenID Connect Core §3.1.3.3), with the `sid` and `ds_hash`
/// of the device secret issued beside it (Native SSO draft 07 §3.4.1).
struct IDTokenContributor: TokenResponseContributor {
    let idTokens: IDTokenIssuer

    init?(_ dependencies: ContributorDependencies) {
        guard let idTokens = dependencies.idTokens else { return nil }
        self.idTokens = idTokens
    }

    func applies(to redeemed: RedeemedCode) -> Bool { OpenIDScope.isOpenID(redeemed.code.scope) }

    func contribute(to answer: inout ContributedResponse, from redeemed: RedeemedCode) throws(OAuthError) {
        let code = redeemed.code
        let idToken = try serverErrorOnFailure {
            try idTokens.idToken(
                subject: redeemed.grant.subject, clientID: redeemed.client.id, nonce: code.nonce, authTime: code.authTime,
                accessToken: redeemed.accessToken, algorithm: redeemed.client.client.idTokenSignedResponseAlg,
                deviceSession: answer.deviceSession, at: redeemed.now)
        }
        answer.response.additionalFields["id_token"] = .string(idToken)
    }
}
