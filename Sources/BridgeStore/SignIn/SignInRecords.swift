import Foundation

/// An authorization request that passed the authorize checks and waits for the user to sign in and consent.
/// Kept server side (not in hidden form fields the user could alter), found by the digest of an unguessable id,
/// and consumed once when the code is issued (node-oidc-provider's "interaction" record).
public struct PendingAuthorizationRecord: Sendable, Hashable {
    /// Digest of the id that appears in the interaction URL.
    public var digest: TokenDigest
    public var clientID: String
    /// Digest of the browser-binding cookie: only the browser that started the request may continue it.
    public var browserDigest: TokenDigest
    /// Digest of the CSRF token the pages carry in their forms.
    public var csrfDigest: TokenDigest
    /// The validated request as the server encodes it (JSON); opaque to the store.
    public var payload: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        digest: TokenDigest, clientID: String, browserDigest: TokenDigest, csrfDigest: TokenDigest, payload: String,
        createdAt: Date, expiresAt: Date
    ) {
        self.digest = digest
        self.clientID = clientID
        self.browserDigest = browserDigest
        self.csrfDigest = csrfDigest
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A user's remembered consent to one client for a set of scopes, so the consent page is shown once.
public struct ConsentRecord: Sendable, Hashable {
    public var userID: String
    public var clientID: String
    /// Space-separated scopes consented to; a later request for a subset needs no new consent.
    public var scope: String
    public var grantedAt: Date

    public init(userID: String, clientID: String, scope: String, grantedAt: Date) {
        self.userID = userID
        self.clientID = clientID
        self.scope = scope
        self.grantedAt = grantedAt
    }

    public var scopes: Set<String> { Set(scope.split(separator: " ").map(String.init)) }
}
