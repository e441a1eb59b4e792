import Foundation

// The sign-in half's records, read from a row once for both stores (see `StoreRow`).
extension StoreRow {
    /// A `pending_authorizations` row: a request waiting for sign-in or consent.
    @inlinable
    public func pendingAuthorization() throws -> PendingAuthorizationRecord {
        guard let consent = AuthorizationTerms.Consent(rawValue: try text("consent")) else {
            throw StoreColumnError(column: "consent")
        }
        return PendingAuthorizationRecord(
            digest: try digest("digest"), clientID: try text("client_id"),
            browserDigest: try digest("browser_digest"), csrfDigest: try digest("csrf_digest"),
            payload: try text("payload"),
            terms: AuthorizationTerms(
                redirectURI: try text("redirect_uri"), scope: try text("scope"),
                codeChallenge: try optionalText("code_challenge"),
                codeChallengeMethod: try optionalText("code_challenge_method"),
                sessionContext: try optionalText("session_context"), consent: consent,
                signInAfter: try optionalDate("sign_in_after"),
                maxAgeSeconds: try optionalInt64("max_age_seconds").map { Int($0) },
                nonce: try optionalText("nonce"), dpopKeyThumbprint: try optionalText("dpop_jkt")),
            createdAt: try date("created_at"), expiresAt: try date("expires_at"))
    }

    /// An `app_to_app_requests` row: a request parked until the host's app approves it.
    @inlinable
    public func appToAppRequest() throws -> AppToAppRequestRecord {
        AppToAppRequestRecord(
            referenceDigest: try digest("reference_digest"), interactionDigest: try digest("interaction_digest"),
            clientID: try text("client_id"), payload: try text("payload"), createdAt: try date("created_at"),
            expiresAt: try date("expires_at"), userID: try optionalText("user_id"),
            resumeDigest: try optionalDigest("resume_digest"),
            decidedAt: try optionalDate("decided_at"), resumedAt: try optionalDate("resumed_at"))
    }

    /// An `upstream_logins` row: one sign-in at an upstream provider, from its `state`.
    @inlinable
    public func upstreamLogin() throws -> UpstreamLoginRecord {
        UpstreamLoginRecord(
            stateDigest: try digest("state_digest"), upstreamID: try text("upstream_id"),
            nonceDigest: try digest("nonce_digest"), codeVerifier: try text("code_verifier"),
            interactionID: try optionalText("interaction_id"),
            browserDigest: try optionalDigest("browser_digest"),
            brokerSessionID: try optionalText("broker_session_id"),
            createdAt: try date("created_at"), expiresAt: try date("expires_at"),
            usedAt: try optionalDate("used_at"))
    }

    /// A `broker_sessions` row: the broker's sign-in on behalf of a partner app.
    @inlinable
    public func brokerSession() throws -> BrokerSessionRecord {
        BrokerSessionRecord(
            digest: try digest("digest"), upstreamID: try text("upstream_id"),
            clientID: try text("client_id"), redirectURI: try text("redirect_uri"),
            codeChallenge: try text("code_challenge"), createdAt: try date("created_at"),
            expiresAt: try date("expires_at"), userID: try optionalText("user_id"),
            completedAt: try optionalDate("completed_at"), redeemedAt: try optionalDate("redeemed_at"),
            failure: try optionalText("failure"))
    }
}
