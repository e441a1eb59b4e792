/// What callers that keep a store's answers for a while (`RecentAnswers`) watch to know when to drop them.
public protocol StoreChanges: Sendable {
    /// Grows whenever a change is committed that can make an earlier answer about a token, grant or user wrong: a
    /// revocation, a replay (which revokes), a user saved or deleted, a session context recorded. Callers that keep
    /// answers for a while drop them when it moves. A store shared by several processes also moves it for the others'
    /// changes when its database can tell it (PostgreSQL's `LISTEN`); callers bound how long they keep an answer for
    /// the rest.
    var changeCounter: UInt64 { get }
}
