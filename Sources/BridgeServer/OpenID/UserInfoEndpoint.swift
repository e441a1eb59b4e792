import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// The UserInfo endpoint (OpenID Connect Core §5.3), GET and POST: a bearer access token with `openid` in its scope
/// gets `sub` and the claims its scope releases (`OpenIDScope`). Errors are RFC 6750 §3 challenges: no token is
/// 401 without an error code, a bad one `invalid_token`, a token without `openid` 403 `insufficient_scope`.
struct UserInfoEndpoint: Sendable {
    static let path = "/userinfo"

    let bearer: BearerTokenCheck
    let store: any UserStore
    let now: @Sendable () -> Date

    /// The claims the token's scope releases, or the RFC 6750 refusal; `dpop`: the request's DPoP fields, since a
    /// DPoP-bound token is accepted here (RFC 9449 §7).
    func claims(authorization: String?, dpop: DPoPPresentation) async throws(BearerRefusal) -> [String: String] {
        let verified = try await bearer.verified(authorization: authorization, dpop: dpop, at: now())
        let scope = verified.claims.scope ?? ""
        guard OpenIDScope.isOpenID(scope), !verified.grant.userID.isEmpty else {
            throw .insufficientScope("the token lacks scope openid")
        }
        let userID = verified.grant.userID
        let user = try await callStore(failingAs: BearerRefusal.self) { try await store.user(id: userID) }
        guard let user else { throw .invalidToken("the token's user no longer exists") }
        return OpenIDScope.claims(of: user, subject: verified.grant.subject, scope: scope)
    }
}
