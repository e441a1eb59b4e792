import Foundation
import SignInProtocol

/// RFC 7662 for the WOPI access tokens the bootstrapper hands out, so that a WOPI host in any language can check one
/// without the seal's key: active only to a client configured as a WOPI server (`wopiServer`), and to it with the
/// token's user (`sub`, `username`), times, grant's client and the WopiSrc it is bound to (`wopi_src`). Everything
/// else (forged, expired, revoked, a removed user, a caller without the permission) is just `{"active":false}` (§2.2).
struct WopiTokenIntrospection: Sendable {
    let verifier: WopiAccessTokenVerifier
    let issuer: String

    func introspect(
        _ token: String, for client: AuthenticatedClient, at time: Date
    ) async throws(OAuthError) -> IntrospectionResponse {
        // §4: a caller without the permission learns nothing, not even whether the token would verify.
        guard client.client.wopiServer else { return .inactive }
        let verified: WopiAccessTokenVerifier.Verified
        do {
            verified = try await verifier.verifyForAnyResource(token, at: time)
        } catch .storeUnavailable {
            throw OAuthError.storeUnavailable
        } catch .storeFault {
            throw OAuthError.serverFault
        } catch {
            return .inactive
        }
        return IntrospectionResponse(
            active: true, client_id: verified.grant.clientID,
            // RFC 6750 §2.3: Office sends it as the access_token query parameter, a bearer token.
            token_type: "Bearer",
            exp: Int(verified.claims.expiresAt.timeIntervalSince1970),
            iat: Int(verified.claims.issuedAt.timeIntervalSince1970), sub: verified.user.id,
            username: verified.user.signInName, iss: issuer, wopi_src: verified.claims.wopiSource)
    }
}
