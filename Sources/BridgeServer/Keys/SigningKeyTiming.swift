import Foundation

/// How long each step of a rotation waits, from the configuration (docs/keys-and-secrets.md).
public struct SigningKeyTiming: Sendable {
    /// How long a next key is published before `rotate` lets it sign (`signingKeys.publishBeforeSigningSeconds`).
    public var publishBeforeSigning: TimeInterval
    /// The longest-lived token each algorithm signs: ES256 signs access tokens, ES256 ID tokens and (through the
    /// seal keys derived from it) WOPI access tokens; RS256 signs ID tokens, which live as long as access tokens.
    public var tokenLifetime: [String: TimeInterval]

    init(publishBeforeSigning: TimeInterval, tokenLifetime: [String: TimeInterval]) {
        self.publishBeforeSigning = publishBeforeSigning
        self.tokenLifetime = tokenLifetime
    }

    public init(configuration: BridgeConfiguration) {
        publishBeforeSigning = TimeInterval(configuration.signingKeys.publishBeforeSigningSeconds)
        let accessAndID = TimeInterval(configuration.tokens.accessTokenLifetimeSeconds)
        tokenLifetime = [
            "ES256": max(accessAndID, TimeInterval(configuration.wopi.accessTokenLifetimeSeconds)),
            "RS256": accessAndID,
        ]
    }

    /// A running server notices a changed key file within this time (`SigningKeyFileWatch`), so a key demoted in
    /// the file may still sign for that long.
    static let reloadSlack = SigningKeyFileWatch.interval + 1

    /// When a key that became previous at `since` has no unexpired token left.
    func retirable(_ alg: String, previousSince since: Date) -> Date {
        since.addingTimeInterval((tokenLifetime[alg] ?? 0) + Self.reloadSlack)
    }

    /// When a next key created at `createdAt` may start signing.
    func promotable(createdAt: Date) -> Date {
        createdAt.addingTimeInterval(publishBeforeSigning + Self.reloadSlack)
    }
}
