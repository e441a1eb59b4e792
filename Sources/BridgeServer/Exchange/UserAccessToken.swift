import Foundation
import SignInProtocol

extension AccessTokenVerifier {
    /// A user's access token of ours, as exchange codes and token exchange take it: verified, active, and issued in
    /// a grant with a user (a `client_credentials` token has none to hand on). Every failure is `code`, with one
    /// description, so that the answer does not tell expired, revoked and forged tokens apart; a store outage is
    /// `temporarily_unavailable`.
    func userToken(_ jwt: String, at now: Date, refusedAs code: OAuthError.Code) async throws(OAuthError) -> VerifiedAccessToken {
        let verified: VerifiedAccessToken
        do {
            verified = try await verifiedToken(jwt, at: now)
        } catch .storeUnavailable {
            throw OAuthError.storeUnavailable
        } catch .storeFault {
            throw OAuthError.serverFault
        } catch {
            throw OAuthError(code, description: "the access token is not valid")
        }
        guard !verified.grant.userID.isEmpty else {
            throw OAuthError(code, description: "the access token has no user (client_credentials)")
        }
        return verified
    }
}
