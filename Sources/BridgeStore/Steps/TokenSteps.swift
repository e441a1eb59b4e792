import Foundation

/// The tokens a token response will carry, drafted before the store call that records them: ids, digests and
/// lifetimes only. The grant, client and scope come from the code or refresh token the same call consumes.
public struct TokenResponseDraft: Sendable, Hashable {
    /// When the tokens are issued (the access token's `iat`, in whole seconds).
    public var issuedAt: Date
    /// The access token's `jti`.
    public var accessTokenID: String
    public var accessExpiresAt: Date
    /// The new refresh token's digest, when the client may refresh.
    public var refreshDigest: TokenDigest?
    /// Nil: the refresh token lives as long as its grant.
    public var refreshExpiresAt: Date?

    public init(
        issuedAt: Date, accessTokenID: String, accessExpiresAt: Date, refreshDigest: TokenDigest? = nil,
        refreshExpiresAt: Date? = nil
    ) {
        self.issuedAt = issuedAt
        self.accessTokenID = accessTokenID
        self.accessExpiresAt = accessExpiresAt
        self.refreshDigest = refreshDigest
        self.refreshExpiresAt = refreshExpiresAt
    }

    /// The records for a response in `grant` to `clientID`; the access token carries `accessScope`, the refresh
    /// token `refreshScope` (RFC 6749 §6: a refresh token keeps its scope when the access token narrows).
    public func records(
        grant: GrantID, clientID: String, accessScope: String, refreshScope: String
    ) -> (access: AccessTokenRecord, refresh: RefreshTokenRecord?) {
        let access = AccessTokenRecord(tokenID: accessTokenID, grantID: grant, issuedAt: issuedAt, expiresAt: accessExpiresAt)
        let refresh = refreshDigest.map {
            RefreshTokenRecord(
                digest: $0, grantID: grant, clientID: clientID, scope: refreshScope, issuedAt: issuedAt,
                expiresAt: refreshExpiresAt)
        }
        return (access, refresh)
    }
}

/// A refresh at the token endpoint (RFC 6749 §6), as one store step.
public struct RefreshRequest: Sendable, Hashable {
    public var presented: TokenDigest
    /// The authenticated client; a token of another client changes nothing.
    public var clientID: String
    /// The `scope` parameter, if any: it may narrow the token's scope, never widen it.
    public var requestedScope: String?
    /// The access token and the replacement refresh token (`refreshDigest` is required).
    public var issuing: TokenResponseDraft
    /// Office's `X-WOPI-SessionContext`, recorded on the grant when it changed.
    public var sessionContext: String?

    public init(
        presented: TokenDigest, clientID: String, requestedScope: String?, issuing: TokenResponseDraft,
        sessionContext: String?
    ) {
        self.presented = presented
        self.clientID = clientID
        self.requestedScope = requestedScope
        self.issuing = issuing
        self.sessionContext = sessionContext
    }

    /// Another client's token, or a wider scope, is refused before anything changes (RFC 6749 §6): the refusal, or
    /// the scope the new access token carries. Every store asks this first, on the token it read.
    @inlinable
    public func scope(for previous: RefreshTokenRecord) -> Result<String, RefreshRefusal> {
        guard previous.clientID == clientID else { return .failure(RefreshRefusal(outcome: .otherClient(previous))) }
        guard let accessScope = ScopeNarrowing.narrowed(requested: requestedScope, granted: previous.scope) else {
            return .failure(RefreshRefusal(outcome: .scopeTooWide(previous)))
        }
        return .success(accessScope)
    }
}

/// A refresh refused before anything changed, as `RefreshRequest.scope(for:)` answers it.
public struct RefreshRefusal: Error, Sendable, Hashable {
    public let outcome: RefreshOutcome

    @inlinable
    public init(outcome: RefreshOutcome) { self.outcome = outcome }
}

/// The answer of the refresh step. Only `.rotated` means the new tokens were recorded.
public enum RefreshOutcome: Sendable, Hashable {
    /// Rotated: the retired token's record, its grant, and the scope the new access token carries.
    case rotated(previous: RefreshTokenRecord, grant: GrantRecord, accessScope: String)
    /// The token belongs to another client; nothing changed.
    case otherClient(RefreshTokenRecord)
    /// The requested scope is wider than the token's; nothing changed.
    case scopeTooWide(RefreshTokenRecord)
    /// Presented again after its rotation (outside any reuse grace): its grant is now revoked (RFC 9700 §4.14.2).
    case replayed(GrantID)
    case expired
    case revoked
    case unknown
}

/// RFC 6749 §6: a refresh may ask for less scope than was granted, never more. One definition for the token endpoint
/// and every store.
public enum ScopeNarrowing {
    /// The scope to issue for `requested` out of `granted`: `granted` when nothing (or nothing but spaces) is asked
    /// for, else the requested values once each in the order asked; nil when a requested value was not granted.
    public static func narrowed(requested: String?, granted: String) -> String? {
        guard let requested, requested.contains(where: { $0 != " " }) else { return granted }
        let grantedValues = Set(granted.split(separator: " "))
        var seen = Set<Substring>()
        var result: [Substring] = []
        for value in requested.split(separator: " ") {
            guard grantedValues.contains(value) else { return nil }
            if seen.insert(value).inserted { result.append(value) }
        }
        return result.joined(separator: " ")
    }
}
