import Foundation

/// The authenticated bootstrap (`/wopibootstrapper` with a verified access token) as one store step: the token's
/// status with its grant and user, and Office's session context to record on the grant when it changed. It records
/// nothing else: the answer's WOPI access tokens carry their own proof (a MAC under the server's key) and are
/// checked against their grant's status, so a bootstrap is a read whenever the session context is unchanged.
public struct BootstrapStep: Sendable, Hashable {
    /// The verified JWT's `jti`.
    public var accessTokenID: String
    /// Office's `X-WOPI-SessionContext`, recorded on the grant when it changed.
    public var sessionContext: String?

    public init(accessTokenID: String, sessionContext: String?) {
        self.accessTokenID = accessTokenID
        self.sessionContext = sessionContext
    }
}

/// The answer of the bootstrap step. Only `.active` records the session context.
public enum BootstrapStatus: Sendable, Hashable {
    case active(GrantRecord, UserRecord)
    case expired
    /// The token or its grant was revoked.
    case revoked
    /// No such token, or its user was removed.
    case unknown
}
