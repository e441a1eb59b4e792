import Foundation

/// A WOPI access token to record in the bootstrap step: its digest (the value goes to Office only), the WOPI resource
/// it is for (nil for the ecosystem token of a plain bootstrap) and its lifetime.
public struct WopiTokenDraft: Sendable, Hashable {
    public var digest: TokenDigest
    public var wopiSource: String?
    public var issuedAt: Date
    public var expiresAt: Date

    public init(digest: TokenDigest, wopiSource: String?, issuedAt: Date, expiresAt: Date) {
        self.digest = digest
        self.wopiSource = wopiSource
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// The authenticated bootstrap (`/wopibootstrapper` with a verified access token) as one store step: the token's
/// status, its grant and user, and the WOPI tokens and session context to record when it is active.
public struct BootstrapStep: Sendable, Hashable {
    /// The verified JWT's `jti`.
    public var accessTokenID: String
    public var wopiTokens: [WopiTokenDraft]
    /// Office's `X-WOPI-SessionContext`, recorded on the grant when it changed.
    public var sessionContext: String?

    public init(accessTokenID: String, wopiTokens: [WopiTokenDraft], sessionContext: String?) {
        self.accessTokenID = accessTokenID
        self.wopiTokens = wopiTokens
        self.sessionContext = sessionContext
    }
}

/// The answer of the bootstrap step. Only `.active` means the WOPI tokens were recorded.
public enum BootstrapStatus: Sendable, Hashable {
    case active(GrantRecord, UserRecord)
    case expired
    /// The token or its grant was revoked.
    case revoked
    /// No such token, or its user was removed.
    case unknown
}
