import Foundation

/// Device sessions of OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07): one per `device_secret`, found by the
/// secret's digest (the secret itself is never stored, §6.1 "Device Secret Protection").
public protocol DeviceSSOStore: Sendable {
    /// Records a device session whose secret goes out with a code redemption's token response (draft 07 §3.4.2).
    func createDeviceSession(_ session: DeviceSessionRecord) async throws

    /// The token exchange step (draft 07 §4.3), one call: when the device session of `digest` is live at `now` and
    /// `claim` matches it, creates `grant` (another app's grant, for the same user) and records `issuing` in it.
    /// Otherwise nothing is written and the answer says why.
    func exchangeDeviceSecret(
        _ digest: TokenDigest, claim: DeviceSessionClaim, grant: GrantRecord, issuing: TokenResponseDraft, at now: Date
    ) async throws -> DeviceSecretExchange

    /// Ends the device session of `digest` when it belongs to `group` (revocation, RFC 7009 §2.1). Returns whether a
    /// live session was ended; another group's session is left alone.
    @discardableResult
    func endDeviceSession(_ digest: TokenDigest, group: String, at now: Date) async throws -> Bool

    /// Ends the device session `sid` (RP-initiated logout naming it). Returns whether a live session was ended.
    @discardableResult
    func endDeviceSession(sid: String, at now: Date) async throws -> Bool
}

/// One device's single sign-on session: the user, the `sid` its ID tokens carry, the group of apps that may share it
/// and the scope the first app was granted.
public struct DeviceSessionRecord: Sendable, Hashable {
    public var digest: TokenDigest
    /// The ID tokens' `sid` (draft 07 §3.4.1).
    public var sid: String
    public var userID: String
    /// The client the secret was first issued to.
    public var clientID: String
    /// The apps of one vendor (`ssoGroup` in the configuration).
    public var group: String
    /// What the first app was granted; another app may get at most this.
    public var scope: String
    /// When the user signed in (`auth_time` of every ID token of this session).
    public var authTime: Date?
    public var createdAt: Date
    public var expiresAt: Date
    /// Set once, by logout, revocation or a password change.
    public var endedAt: Date?

    public init(
        digest: TokenDigest, sid: String, userID: String, clientID: String, group: String, scope: String,
        authTime: Date?, createdAt: Date, expiresAt: Date, endedAt: Date? = nil
    ) {
        self.digest = digest
        self.sid = sid
        self.userID = userID
        self.clientID = clientID
        self.group = group
        self.scope = scope
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.endedAt = endedAt
    }
}

/// What the presented ID token and the requesting client say the device session must be (draft 07 §4.3).
public struct DeviceSessionClaim: Sendable, Hashable {
    /// The ID token's `sid`.
    public var sid: String
    /// The ID token's `sub`.
    public var userID: String
    /// The requesting client's group.
    public var group: String
    /// The scope asked for the other app: at most what the session's first app was granted.
    public var scope: String

    public init(sid: String, userID: String, group: String, scope: String) {
        self.sid = sid
        self.userID = userID
        self.group = group
        self.scope = scope
    }

    /// The one rule both stores apply: same session, same user, same group of apps, no wider scope.
    public func matches(_ session: DeviceSessionRecord) -> Bool { isSameSession(session) && fitsScope(of: session) }

    public func isSameSession(_ session: DeviceSessionRecord) -> Bool {
        session.sid == sid && session.userID == userID && session.group == group
    }

    public func fitsScope(of session: DeviceSessionRecord) -> Bool {
        Set(scope.split(separator: " ")).isSubset(of: Set(session.scope.split(separator: " ")))
    }
}

/// The answer of `exchangeDeviceSecret`. Only `.exchanged` means a grant and tokens were recorded.
public enum DeviceSecretExchange: Sendable, Hashable {
    case exchanged(DeviceSessionRecord)
    /// The session is live but belongs to another session, user or group than the claim says, or the claim's scope
    /// is wider than the session's.
    case mismatch(DeviceSessionRecord)
    case ended
    case expired
    case unknown
}
