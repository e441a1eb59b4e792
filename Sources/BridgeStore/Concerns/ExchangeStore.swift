import Foundation

/// Session exchange codes (`POST /oauth/exchange` with `type=session`, opened at `/auth/session/{code}`): single use,
/// stored hashed. (Exchange codes of `type=code` are authorization codes: `CodeStore.issueExchangeCode`.)
public protocol ExchangeStore: Sendable {
    func issueSessionCode(_ code: SessionExchangeCodeRecord) async throws

    /// The browser opens the code (one call): consumes it when it is live and unused, and creates the browser
    /// session `session` for its user in the same transaction. A used code stays used: opening it again is a replay.
    func openSessionCode(
        _ digest: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> SessionCodeOpening
}

/// A one-time code that gives a browser a session for `userID`, then sends it to `redirectURI` (one of the target
/// client's registered redirect URIs).
public struct SessionExchangeCodeRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var userID: String
    public var clientID: String
    public var redirectURI: String
    public var issuedAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(
        digest: TokenDigest, userID: String, clientID: String, redirectURI: String, issuedAt: Date, expiresAt: Date,
        usedAt: Date? = nil
    ) {
        self.digest = digest
        self.userID = userID
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// The answer of `openSessionCode`.
public enum SessionCodeOpening: Sendable, Hashable {
    /// This call consumed the code and created the session.
    case opened(SessionExchangeCodeRecord)
    /// Opened before: nothing changed.
    case replayed
    case expired
    case unknown
}
