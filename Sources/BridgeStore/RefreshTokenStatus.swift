import Foundation

/// What the store knows about a refresh token at a given time. Every case but `unknown` carries the token's record,
/// so a caller can check which client it belongs to before acting (RFC 7009 §2.1, RFC 7662 §2.2).
public enum RefreshTokenStatus: Sendable, Hashable {
    /// Usable: not rotated, not expired, grant not revoked.
    case active(RefreshTokenRecord, GrantRecord)
    /// Retired by a rotation; presenting it again is a replay (RFC 9700 §4.14.2).
    case rotated(RefreshTokenRecord)
    case expired(RefreshTokenRecord)
    /// Its grant was revoked.
    case revoked(RefreshTokenRecord)
    case unknown
}
