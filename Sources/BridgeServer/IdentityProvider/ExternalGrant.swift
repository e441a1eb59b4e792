import BridgeStore
import Foundation
import SignInProtocol

/// The stand-in for a grant that a user of the host's provider has not got in our store: the user's Office fields,
/// carried inside the grant id of the WOPI access tokens sealed for them (`idp:` and base64url, never a grant id this
/// server generates, which is a UUID). The seal's HMAC is what makes it trustworthy; `WopiAccessTokenVerifier` reads
/// it back without the store, and the token's own expiry (bounded by the provider's token) is its only end.
struct ExternalGrant: Sendable, Hashable {
    static let prefix = "idp:"
    /// The client such a grant names, so introspection and forward auth say where the user came from.
    static let clientID = "identity-provider"

    var userId: String
    var signInName: String
    var friendlyName: String?

    init(identity: ExternalIdentity) {
        userId = identity.userId
        // Office requires a SignInName; a provider that gives none leaves the user id in its place.
        signInName = identity.signInName ?? identity.userId
        friendlyName = identity.friendlyName
    }

    /// Reads a grant id sealed by `id`; nil for any other grant id.
    init?(_ id: GrantID) {
        guard id.rawValue.hasPrefix(Self.prefix),
            let bytes = Base64URL.decode(String(id.rawValue.dropFirst(Self.prefix.count))),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let fields = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, !fields[0].isEmpty else { return nil }
        userId = fields[0]
        signInName = fields[1]
        friendlyName = fields[2].isEmpty ? nil : fields[2]
    }

    /// Claim values with a newline would break the fields apart; they are replaced by spaces.
    var id: GrantID {
        let fields = [userId, signInName, friendlyName ?? ""].map { $0.replacingOccurrences(of: "\n", with: " ") }
        return GrantID(Self.prefix + Base64URL.encode(Array(fields.joined(separator: "\n").utf8)))
    }

    func grant(at time: Date) -> GrantRecord {
        GrantRecord(id: id, userID: userId, clientID: Self.clientID, scope: "wopi", createdAt: time)
    }

    var user: UserRecord { UserRecord(id: userId, signInName: signInName, friendlyName: friendlyName) }
}
