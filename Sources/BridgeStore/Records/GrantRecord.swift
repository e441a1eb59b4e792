import Foundation

/// Identifies a grant: the authorization one user gave one client. Codes, access tokens, WOPI tokens and refresh
/// tokens all belong to one grant, so that revoking it (code replay, refresh replay, password change) revokes
/// everything derived from it in one step, as ory/fosite's request id does.
public struct GrantID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A new random id (UUID v4).
    public static func generate() -> GrantID { GrantID(UUID().uuidString.lowercased()) }

    public var description: String { rawValue }
}

public struct GrantRecord: Sendable, Hashable {
    public var id: GrantID
    public var userID: String
    public var clientID: String
    /// Space-separated scope values as granted (RFC 6749 §3.3); may be empty.
    public var scope: String
    /// The latest `X-WOPI-SessionContext` Office sent for this grant.
    public var sessionContext: String?
    public var createdAt: Date
    /// Set once; a revoked grant never becomes active again.
    public var revokedAt: Date?

    public init(
        id: GrantID = .generate(), userID: String, clientID: String, scope: String = "",
        sessionContext: String? = nil, createdAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.clientID = clientID
        self.scope = scope
        self.sessionContext = sessionContext
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
