import BridgeStore

extension GrantRecord {
    /// The `sub` of tokens in this grant: the user, or for a `client_credentials` grant (no user, empty `userID`)
    /// the client itself, as RFC 9068 §2.2 asks. An empty user id can never name a configured user, so such a token
    /// is never mistaken for a user's at the bootstrapper.
    var subject: String { userID.isEmpty ? clientID : userID }
}
