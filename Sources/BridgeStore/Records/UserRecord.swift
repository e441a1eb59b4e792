import Foundation

/// A local account of the embedded default (issue 5 adds `signin-bridge user add|passwd|remove`).
public struct UserRecord: Sendable, Hashable {
    /// Stable id, sent to Office as `UserId`.
    public var id: String
    /// What the person types to sign in, sent to Office as `SignInName`.
    public var signInName: String
    /// Optional display name, sent to Office as `UserFriendlyName`.
    public var friendlyName: String?
    /// A slow password hash (bcrypt `$2b$…`), never a password. Nil: the user cannot sign in with a password.
    public var passwordHash: String?

    public init(id: String, signInName: String, friendlyName: String? = nil, passwordHash: String? = nil) {
        self.id = id
        self.signInName = signInName
        self.friendlyName = friendlyName
        self.passwordHash = passwordHash
    }
}
