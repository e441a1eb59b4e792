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
    /// What the store needs to finish the request on its own: the code's bindings and the sign-in and consent rules.
    public var terms: AuthorizationTerms
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        digest: TokenDigest, clientID: String, browserDigest: TokenDigest, csrfDigest: TokenDigest, payload: String,
        terms: AuthorizationTerms, createdAt: Date, expiresAt: Date
    ) {
        self.digest = digest
        self.clientID = clientID
        self.browserDigest = browserDigest
        self.csrfDigest = csrfDigest
        self.payload = payload
        self.terms = terms
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The part of an accepted authorization request that decides how it ends, kept in columns so that one store call
/// can check the session and consent and issue the code (`AuthorizationDecision`).
public struct AuthorizationTerms: Sendable, Hashable {
    /// Whether the user must allow the client before a code is issued.
    public enum Consent: String, Sendable, Hashable, CaseIterable {
        /// A first-party client: never asked.
        case notNeeded = "not_needed"
        /// Asked unless the user allowed every requested scope before.
        case remembered
        /// `prompt=consent`: asked again in any case.
        case always
    }

    /// The `redirect_uri` the code is bound to (RFC 6749 §4.1.3).
    public var redirectURI: String
    /// Space-separated scopes the user is asked to grant.
    public var scope: String
    /// PKCE `code_challenge` and its method (RFC 7636 §4.3).
    public var codeChallenge: String?
    public var codeChallengeMethod: String?
    /// Office's `sc` for the grant, minted when the request is accepted; nil for clients that do not use it.
    public var sessionContext: String?
    public var consent: Consent
    /// `prompt=login` (or `select_account`): only a sign-in at or after this time counts.
    public var signInAfter: Date?
    /// `max_age` (OpenID Connect Core §3.1.2.1): only a sign-in at most this many seconds before the step counts.
    public var maxAgeSeconds: Int?
    /// OpenID Connect `nonce`, copied onto the code so the ID token can echo it (OpenID Connect Core §3.1.2.1).
    public var nonce: String?
    /// DPoP `dpop_jkt` (RFC 9449 §10), copied onto the code, which then needs a proof by that key.
    public var dpopKeyThumbprint: String?

    public init(
        redirectURI: String, scope: String, codeChallenge: String? = nil, codeChallengeMethod: String? = nil,
        sessionContext: String? = nil, consent: Consent = .remembered, signInAfter: Date? = nil,
        maxAgeSeconds: Int? = nil, nonce: String? = nil, dpopKeyThumbprint: String? = nil
    ) {
        self.dpopKeyThumbprint = dpopKeyThumbprint
        self.redirectURI = redirectURI
        self.scope = scope
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.sessionContext = sessionContext
        self.consent = consent
        self.signInAfter = signInAfter
        self.maxAgeSeconds = maxAgeSeconds
        self.nonce = nonce
    }

    public var scopes: [String] { scope.split(separator: " ").map(String.init) }
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
