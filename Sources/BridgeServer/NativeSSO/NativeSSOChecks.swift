import BridgeStore
import Foundation
import SignInProtocol

/// The checks of a Native SSO token exchange that need no store (OpenID Connect Native SSO for Mobile Apps 1.0
/// draft 07 §4.1-§4.3): the request's shape, then the presented ID token against the presented device secret.
enum NativeSSOChecks {
    /// §4.1: an ID token as subject and a device secret as actor, both present; `audience`, when sent, is this
    /// issuer; only access tokens are issued. Failures are `invalid_request` (RFC 8693 §2.2.2), a foreign
    /// audience or resource `invalid_target`.
    static func checkRequest(_ exchange: TokenRequest.TokenExchange, issuer: String) throws(OAuthError) -> String {
        guard exchange.subjectTokenType == NativeSSO.idTokenType else {
            throw OAuthError(.invalidRequest, description: "subject_token_type must be \(NativeSSO.idTokenType) (Native SSO draft 07 section 4.1)")
        }
        guard exchange.actorTokenType == NativeSSO.deviceSecretType, let actor = exchange.actorToken, !actor.isEmpty else {
            throw OAuthError(
                .invalidRequest,
                description: "actor_token must be the device secret, actor_token_type \(NativeSSO.deviceSecretType) (Native SSO draft 07 section 4.1)")
        }
        if let requested = exchange.requestedTokenType, requested != TokenExchangeGrant.accessTokenType {
            throw OAuthError(.invalidRequest, description: "requested_token_type must be \(TokenExchangeGrant.accessTokenType)")
        }
        for audience in exchange.audiences where audience != issuer {
            throw OAuthError(.invalidTarget, description: "audience must be this issuer (Native SSO draft 07 section 4.1)")
        }
        for resource in exchange.resources where resource != issuer {
            throw OAuthError(.invalidTarget, description: "resource is not served by this issuer")
        }
        return actor
    }

    /// §4.3: the ID token names a device session (`sid`) and its `ds_hash` is the presented secret's. Any
    /// failure is `invalid_grant`.
    static func checkBinding(_ claims: IDTokenClaims, deviceSecret: String) throws(OAuthError) -> DeviceSessionBinding {
        guard let sid = claims.sid, let dsHash = claims.ds_hash else {
            throw OAuthError(.invalidGrant, description: "the ID token has no sid and ds_hash: it was not issued with device_sso")
        }
        guard dsHash == NativeSSO.dsHash(of: deviceSecret) else {
            throw OAuthError(.invalidGrant, description: "the device secret is not the one the ID token's ds_hash names (Native SSO draft 07 section 4.3)")
        }
        return DeviceSessionBinding(sid: sid, dsHash: dsHash)
    }

    /// The store's answer as the client is told it (§4.3: every failure of the secret is `invalid_grant`; a scope
    /// wider than the session's is `invalid_scope`, RFC 6749 §5.2).
    static func checkExchanged(_ outcome: DeviceSecretExchange, claim: DeviceSessionClaim) throws(OAuthError) -> DeviceSessionRecord {
        switch outcome {
        case .exchanged(let session): return session
        case .mismatch(let session) where claim.isSameSession(session):
            throw OAuthError(.invalidScope, description: "scope asks for more than the device session's first app was granted")
        case .mismatch:
            throw OAuthError(.invalidGrant, description: "the device secret belongs to another session, user or SSO group")
        case .ended: throw OAuthError(.invalidGrant, description: "the device session was logged out or revoked")
        case .expired: throw OAuthError(.invalidGrant, description: "the device secret has expired")
        case .unknown: throw OAuthError(.invalidGrant, description: "the device secret is unknown")
        }
    }
}
