import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// The UserInfo endpoint (OpenID Connect Core §5.3), GET and POST: a bearer access token with `openid` in its scope
/// gets `sub` and the claims its scope releases (`OpenIDScope`). Errors are RFC 6750 §3 challenges: no token is
/// 401 without an error code, a bad one `invalid_token`, a token without `openid` 403 `insufficient_scope`.
struct UserInfoEndpoint: Sendable {
    static let path = "/userinfo"

    let verifier: AccessTokenVerifier
    let store: any Store
    let challenge: BearerChallenge
    let maxHeaderBytes: Int
    let now: @Sendable () -> Date

    func respond(to request: Request) async -> Response {
        guard let credential = BearerCredential(authorization: request.headers[.authorization], maxBytes: maxHeaderBytes)
        else { return challenge.missing() }
        let verified: VerifiedAccessToken
        do {
            verified = try await verifier.verifiedToken(credential.token, at: now())
        } catch .storeUnavailable {
            return BearerChallenge.unavailable()
        } catch {
            return challenge.invalidToken("the access token is invalid")
        }
        let scope = verified.claims.scope ?? ""
        guard OpenIDScope.isOpenID(scope), !verified.grant.userID.isEmpty else {
            return challenge.insufficientScope("the token lacks scope openid")
        }
        let user: UserRecord?
        do {
            user = try await store.user(id: verified.grant.userID)
        } catch {
            return BearerChallenge.unavailable()
        }
        guard let user else {
            return challenge.invalidToken("the token's user no longer exists")
        }
        let claims = OpenIDScope.claims(of: user, subject: verified.grant.subject, scope: scope)
        return OAuthHTTPResponse.json(JSONBody.encode(claims))
    }
}
