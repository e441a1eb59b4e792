import Foundation

/// Sign-in through upstream OpenID providers and the session broker built on it: the login attempts (`state`,
/// `nonce`, PKCE verifier), the identities linked to local users, and the broker's PKCE-bound sessions.
///
/// A callback is two calls, like a password sign-in: `takeUpstreamLogin` before the token request to the upstream
/// (so a replayed `state` is refused even while the first request is still running) and `signInUpstream` after
/// the ID token is validated, so that no transaction stays open across the network call.
public protocol UpstreamStore: Sendable {
    /// Records a login attempt, and for the broker the session it will complete, in one transaction.
    func startUpstreamLogin(_ login: UpstreamLoginRecord, broker: BrokerSessionRecord?) async throws

    /// Consumes the attempt `state` names: single use, within its lifetime. A broker login comes with its session
    /// (to know the app's deep link), as it stands.
    func takeUpstreamLogin(state: TokenDigest, at now: Date) async throws -> UpstreamLoginTaking

    /// Finds the local user of an upstream identity (its link; else, when `identity.verifiedEmail` is given, the one
    /// user with that email, which gets linked; else a new user, linked), then ends the login as `end` says: a
    /// browser session for that user, or the broker session completed with it. One transaction.
    func signInUpstream(_ identity: UpstreamIdentity, end: UpstreamSignInEnd, at now: Date) async throws -> UpstreamSignIn

    /// The broker's `POST …/session` (one call): the session is taken once, and only with the right PKCE challenge
    /// (computed by the caller from the presented verifier); a wrong challenge burns the session. When it is taken
    /// with its user, for `claim`'s provider and client, the grant of that user to the client is created and the
    /// drafted access token recorded in it, in the same transaction.
    func redeemBrokerSession(_ claim: BrokerSessionClaim, at now: Date) async throws -> BrokerSessionRedemption

    /// Ends a broker session whose upstream sign-in failed, with the error the app is told (`failure`): the next
    /// redemption with the right verifier answers `.failed` at once instead of `.pending` until the session expires.
    /// An unknown, completed, redeemed or expired session is left alone. Returns whether the session was ended.
    func failBrokerSession(_ digest: TokenDigest, failure: String, at now: Date) async throws -> Bool

    /// The upstream identities linked to a user.
    func linkedIdentities(userID: String) async throws -> [LinkedIdentityRecord]
}

/// One login started at an upstream provider, keyed by the digest of the `state` sent there.
public struct UpstreamLoginRecord: Sendable, Hashable {
    public var stateDigest: TokenDigest
    public var upstreamID: String
    /// The digest of the `nonce` sent upstream; the ID token's `nonce` must hash to it.
    public var nonceDigest: TokenDigest
    /// The PKCE verifier (RFC 7636 §4.1) for the token request; kept in clear because it must be sent, and useless
    /// without the code the upstream gives only to the browser.
    public var codeVerifier: String
    /// The parked authorization to continue (the id of `/oauth2/interaction/{id}`), for a login from the sign-in page.
    public var interactionID: String?
    /// The browser that started it (digest of its browser cookie); its callback must come from the same browser.
    public var browserDigest: TokenDigest?
    /// The broker session to complete, for a login started at `/auth/{provider}/login`: its id in clear, because
    /// the browser is sent to the app's deep link with it (as the Vipps iOS guide does); worthless without the
    /// app's PKCE verifier.
    public var brokerSessionID: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(
        stateDigest: TokenDigest, upstreamID: String, nonceDigest: TokenDigest, codeVerifier: String,
        interactionID: String? = nil, browserDigest: TokenDigest? = nil, brokerSessionID: String? = nil,
        createdAt: Date, expiresAt: Date, usedAt: Date? = nil
    ) {
        self.stateDigest = stateDigest
        self.upstreamID = upstreamID
        self.nonceDigest = nonceDigest
        self.codeVerifier = codeVerifier
        self.interactionID = interactionID
        self.browserDigest = browserDigest
        self.brokerSessionID = brokerSessionID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

public enum UpstreamLoginTaking: Sendable, Hashable {
    case taken(UpstreamLoginRecord, broker: BrokerSessionRecord?)
    /// Taken before: a replayed `state`.
    case replayed
    case expired
    case unknown
}

/// Who the upstream says signed in, and the user to create if nobody is linked yet.
public struct UpstreamIdentity: Sendable, Hashable {
    public var upstreamID: String
    /// The ID token's `sub` (stable per issuer, OpenID Connect Core §2).
    public var subject: String
    /// Created (and linked) when the identity has no link and no user matched by email.
    public var newUser: UserRecord
    /// Set only when the upstream marked the email verified and the configuration allows linking by it.
    public var verifiedEmail: String?

    public init(upstreamID: String, subject: String, newUser: UserRecord, verifiedEmail: String? = nil) {
        self.upstreamID = upstreamID
        self.subject = subject
        self.newUser = newUser
        self.verifiedEmail = verifiedEmail
    }
}

public enum UpstreamSignInEnd: Sendable, Hashable {
    /// A browser session with this digest, for the sign-in pages.
    case browserSession(digest: TokenDigest, expiresAt: Date)
    /// The broker session with this digest gets the user (if it is live and not completed yet), and from then on
    /// is found by `completion` instead: the digest of the new secret the browser carries to the app's deep link. The
    /// id `/login` answered is known to whoever started the login, who need not be the person who signed in.
    case brokerSession(TokenDigest, completion: TokenDigest)
}

public struct UpstreamSignIn: Sendable, Hashable {
    public enum How: String, Sendable, Hashable {
        case linked, linkedByEmail = "linked_by_email", created
    }
    public var user: UserRecord
    public var how: How
    /// False when `end` named a broker session that is gone, expired or completed already.
    public var ended: Bool

    public init(user: UserRecord, how: How, ended: Bool) {
        self.user = user
        self.how = how
        self.ended = ended
    }

    /// Which local account an upstream identity signs in to, given what the store found: the user already linked to
    /// it; else the one local user whose email the provider verified (`emailMatches`: up to two users with that email,
    /// empty when linking by email is off or the email is unverified); else a new user. Two local users with one
    /// email get neither: linking either would be a guess (OpenID Connect Core §5.7: only `iss` + `sub` identify).
    public static func account(linked: UserRecord?, emailMatches: [UserRecord], newUser: UserRecord) -> (UserRecord, How) {
        if let linked { return (linked, .linked) }
        if emailMatches.count == 1 { return (emailMatches[0], .linkedByEmail) }
        return (newUser, .created)
    }
}

/// A link between an upstream identity and a local user.
public struct LinkedIdentityRecord: Sendable, Hashable {
    public var upstreamID: String
    public var subject: String
    public var userID: String
    public var linkedAt: Date

    public init(upstreamID: String, subject: String, userID: String, linkedAt: Date) {
        self.upstreamID = upstreamID
        self.subject = subject
        self.userID = userID
        self.linkedAt = linkedAt
    }
}

/// A broker session (`/auth/{provider}/login`): bound to the app's PKCE challenge, completed by the upstream
/// callback, redeemed once by `POST /auth/{provider}/session`.
public struct BrokerSessionRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var upstreamID: String
    public var clientID: String
    /// The app's registered deep link the browser is sent to afterwards.
    public var redirectURI: String
    /// The S256 challenge (RFC 7636 §4.2) the app sent at login.
    public var codeChallenge: String
    public var createdAt: Date
    public var expiresAt: Date
    public var userID: String?
    public var completedAt: Date?
    public var redeemedAt: Date?
    /// The error the upstream sign-in ended with, as the app is told it (`failBrokerSession`).
    public var failure: String?

    public init(
        digest: TokenDigest, upstreamID: String, clientID: String, redirectURI: String, codeChallenge: String,
        createdAt: Date, expiresAt: Date, userID: String? = nil, completedAt: Date? = nil, redeemedAt: Date? = nil,
        failure: String? = nil
    ) {
        self.digest = digest
        self.upstreamID = upstreamID
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.userID = userID
        self.completedAt = completedAt
        self.redeemedAt = redeemedAt
        self.failure = failure
    }
}

/// What the app presents at `POST /auth/{provider}/session`, and what to issue when it redeems the session.
public struct BrokerSessionClaim: Sendable, Hashable {
    /// The digest of the deep link's `sessionId`.
    public var session: TokenDigest
    /// The S256 challenge of the presented verifier (RFC 7636 §4.6).
    public var codeChallenge: String
    /// The provider whose path was posted to; a session started at another is burnt, and nothing issued.
    public var upstreamID: String
    /// The broker's app client, which gets the grant; a session of another client is burnt, and nothing issued.
    public var clientID: String
    /// The new grant's scope.
    public var scope: String
    /// The access token to record; its `grantID` is the id of the grant this step creates.
    public var access: AccessTokenRecord

    public init(
        session: TokenDigest, codeChallenge: String, upstreamID: String, clientID: String, scope: String,
        access: AccessTokenRecord
    ) {
        self.session = session
        self.codeChallenge = codeChallenge
        self.upstreamID = upstreamID
        self.clientID = clientID
        self.scope = scope
        self.access = access
    }

    /// The grant this claim creates for `userID` when it redeems the session.
    public func grant(userID: String, at now: Date) -> GrantRecord {
        GrantRecord(id: access.grantID, userID: userID, clientID: clientID, scope: scope, createdAt: now)
    }

    /// Whether `session` was started for this claim's provider and client.
    public func matches(_ session: BrokerSessionRecord) -> Bool {
        session.upstreamID == upstreamID && session.clientID == clientID
    }
}

public enum BrokerSessionRedemption: Sendable, Hashable {
    /// This call took the session: its user, with the email and phone claims, and the grant created for them, in
    /// which the claim's access token is recorded.
    case redeemed(BrokerSessionRecord, UserRecord, GrantRecord)
    /// The right verifier for a finished session of another provider or client: burnt, nothing issued.
    case misdirected
    /// The right verifier, but the upstream login has not finished: nothing changed.
    case pending
    /// The right verifier, and the upstream sign-in failed with this error: the session is now used up.
    case failed(String)
    /// The wrong verifier: the session is burnt (RFC 7636 §4.6 compares; a guess must not get a second try).
    case wrongVerifier
    case replayed
    case expired
    case unknown
}
