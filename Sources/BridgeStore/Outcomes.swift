import Foundation

/// What the store knows about an access token id at a given time.
public enum AccessTokenStatus: Sendable, Hashable {
    case active(AccessTokenRecord, GrantRecord)
    case expired
    /// The token or its grant was revoked.
    case revoked
    /// No token with this id was ever recorded (or it was purged after expiry).
    case unknown
}

/// The result of redeeming an authorization code. Only `.redeemed` may lead to tokens.
public enum CodeRedemption: Sendable, Hashable {
    /// The code, and its grant as it was when the code was consumed (not revoked), read in the same step.
    case redeemed(AuthorizationCodeRecord, GrantRecord)
    /// The code had been redeemed before; its grant is now revoked (RFC 9700 §4.2.4).
    case replayed(GrantID)
    case expired
    /// The code's grant was revoked before this redemption.
    case revoked
    case unknown
}
