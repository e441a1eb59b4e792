import Foundation

/// A signed access token (JWT) as the store remembers it: by its `jti`, so that it can be revoked before it expires.
public struct AccessTokenRecord: Sendable, Hashable {
    /// The JWT's `jti` claim.
    public var tokenID: String
    public var grantID: GrantID
    public var issuedAt: Date
    public var expiresAt: Date

    public init(tokenID: String, grantID: GrantID, issuedAt: Date, expiresAt: Date) {
        self.tokenID = tokenID
        self.grantID = grantID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// An authorization code (RFC 6749 §4.1.2) with what the token endpoint must check when it is redeemed.
public struct AuthorizationCodeRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var grantID: GrantID
    public var clientID: String
    /// The `redirect_uri` of the authorize request, to be matched exactly at redemption (RFC 6749 §4.1.3).
    public var redirectURI: String
    /// PKCE `code_challenge` and its method (RFC 7636 §4.3); nil when the request had none.
    public var codeChallenge: String?
    public var codeChallengeMethod: String?
    public var scope: String
    public var issuedAt: Date
    public var expiresAt: Date
    /// OpenID Connect: the request's `nonce` and when the user signed in (`auth_time`, OpenID Connect Core §2).
    public var nonce: String?
    public var authTime: Date?
    /// DPoP `dpop_jkt` of the authorize request (RFC 9449 §10): the code is redeemed only with a proof by that key.
    public var dpopKeyThumbprint: String?

    public init(
        digest: TokenDigest, grantID: GrantID, clientID: String, redirectURI: String,
        codeChallenge: String? = nil, codeChallengeMethod: String? = nil, scope: String = "",
        issuedAt: Date, expiresAt: Date, nonce: String? = nil, authTime: Date? = nil, dpopKeyThumbprint: String? = nil
    ) {
        self.dpopKeyThumbprint = dpopKeyThumbprint
        self.digest = digest
        self.grantID = grantID
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.scope = scope
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.nonce = nonce
        self.authTime = authTime
    }
}

/// A refresh token (RFC 6749 §1.5), kept as a digest only.
public struct RefreshTokenRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var grantID: GrantID
    public var clientID: String
    public var scope: String
    public var issuedAt: Date
    /// Nil: lives as long as its grant.
    public var expiresAt: Date?

    public init(
        digest: TokenDigest, grantID: GrantID, clientID: String, scope: String = "", issuedAt: Date,
        expiresAt: Date? = nil
    ) {
        self.digest = digest
        self.grantID = grantID
        self.clientID = clientID
        self.scope = scope
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// A signed-in browser session of the sign-in pages, found by the digest of its cookie value.
public struct SessionRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var userID: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(digest: TokenDigest, userID: String, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
