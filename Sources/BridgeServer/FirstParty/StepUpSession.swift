import BridgeStore
import Crypto
import Foundation
import SignInProtocol

/// The `auth_session` a first-party app gets with its tokens (draft-ietf-oauth-first-party-apps-04 §6.1): a later
/// challenge request presents it to step up, and only the password is asked again, for the same user (§6.1: "restore
/// the context of a previous session and prompt only for the needed step-up factors"). It belongs to the grant of
/// the tokens it came with: once that grant is revoked (logout, revocation, a password change), it starts nothing.
struct StepUpSession: Sendable, Hashable {
    var clientID: String
    var userID: String
    /// The grant of the token response that carried it (`GrantRecord.id`).
    var grantID: String
    /// RFC 7638 thumbprint of the DPoP key the tokens were bound to; the step-up request must prove the same key.
    var dpopKeyThumbprint: String?
    var expiresAt: Date
}

/// What the token endpoint needs to hand out step-up sessions: the seal and how long a session lives
/// (`firstPartyApps.stepUpSessionLifetimeSeconds`, never longer than the refresh token issued beside it: the value
/// is not rotated, so its bound is fixed when it is issued).
struct StepUpIssuance: Sendable {
    let seal: StepUpSessionSeal
    let lifetime: TimeInterval

    /// `configured` seconds, cut to `refreshTokenLifetime` when refresh tokens expire (nil: they do not).
    init(seal: StepUpSessionSeal, configured: Int, refreshTokenLifetime: TimeInterval?) {
        self.seal = seal
        lifetime = min(TimeInterval(configured), refreshTokenLifetime ?? .infinity)
    }

    func session(in grant: GrantRecord, dpopKey: String?, at now: Date) -> String? {
        seal.seal(
            StepUpSession(
                clientID: grant.clientID, userID: grant.userID, grantID: grant.id.rawValue, dpopKeyThumbprint: dpopKey,
                expiresAt: now.addingTimeInterval(lifetime)))
    }
}
