import BridgeStore
import Foundation
import SignInProtocol

/// The `auth_session` of a first-party client's OpenID code redemption (draft-ietf-oauth-first-party-apps-04 §6.1:
/// it "MAY be included even if the authorization code was obtained through a traditional OAuth authorization code
/// flow"), bound to this client, user, grant and DPoP key. Only for an OpenID request: it restores a user's sign-in,
/// which a plain OAuth request never asked for.
struct StepUpSessionContributor: TokenResponseContributor {
    let stepUp: StepUpIssuance

    /// Off when the authorization challenge endpoint is.
    init?(_ dependencies: ContributorDependencies) {
        guard let stepUp = dependencies.stepUp else { return nil }
        self.stepUp = stepUp
    }

    func applies(to redeemed: RedeemedCode) -> Bool {
        redeemed.client.client.firstParty && OpenIDScope.isOpenID(redeemed.code.scope)
    }

    func contribute(to answer: inout ContributedResponse, from redeemed: RedeemedCode) throws(OAuthError) {
        answer.response.additionalFields["auth_session"] = stepUp.session(
            in: redeemed.grant, dpopKey: redeemed.proof?.thumbprint, at: redeemed.now).map(JSONValue.string)
    }
}
