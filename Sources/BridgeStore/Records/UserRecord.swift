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
    /// The OpenID Connect `email` and `phone_number` claims (OpenID Connect Core §5.1); read by the reads of one
    /// user (`user(id:)`, `user(signInName:)`), not by the steps that join a user to something else.
    public var email: String?
    public var phoneNumber: String?

    public init(
        id: String, signInName: String, friendlyName: String? = nil, passwordHash: String? = nil, email: String? = nil,
        phoneNumber: String? = nil
    ) {
        self.id = id
        self.signInName = signInName
        self.friendlyName = friendlyName
        self.passwordHash = passwordHash
        self.email = email
        self.phoneNumber = phoneNumber
    }
}
