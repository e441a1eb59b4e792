import Foundation

/// What a code redemption writes besides the code and its token response, in the same transaction: the redemption
/// and these writes happen together or not at all.
public struct CodeRedemptionWrites: Sendable, Hashable {
    /// A Native SSO device session whose secret goes out with this response (Native SSO draft 07 §3.4.2).
    public var deviceSession: DeviceSessionDraft?

    public init(deviceSession: DeviceSessionDraft? = nil) {
        self.deviceSession = deviceSession
    }

    public static let none = CodeRedemptionWrites()
}

/// A device session drafted before the redemption that issues it, when the code's scope is not known yet: the store
/// writes it, with the code's user, scope and `auth_time`, only when the consumed code was issued to `clientID` and
/// granted every value of `requiredScope` (`isWritten(for:)`, the one rule both stores apply).
public struct DeviceSessionDraft: Sendable, Hashable {
    public var digest: TokenDigest
    public var sid: String
    public var clientID: String
    public var group: String
    /// The scope values the code must have been granted, each one a word of its `scope`.
    public var requiredScope: [String]
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        digest: TokenDigest, sid: String, clientID: String, group: String, requiredScope: [String], createdAt: Date,
        expiresAt: Date
    ) {
        self.digest = digest
        self.sid = sid
        self.clientID = clientID
        self.group = group
        self.requiredScope = requiredScope
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether a redemption of `code` writes this session.
    public func isWritten(for code: AuthorizationCodeRecord) -> Bool {
        guard code.clientID == clientID else { return false }
        let granted = code.scope.split(separator: " ")
        return requiredScope.allSatisfy { value in granted.contains { $0 == value } }
    }

    /// The session a redemption of `code` in a grant of `userID` writes.
    public func record(for code: AuthorizationCodeRecord, userID: String) -> DeviceSessionRecord {
        DeviceSessionRecord(
            digest: digest, sid: sid, userID: userID, clientID: clientID, group: group, scope: code.scope,
            authTime: code.authTime, createdAt: createdAt, expiresAt: expiresAt)
    }
}
