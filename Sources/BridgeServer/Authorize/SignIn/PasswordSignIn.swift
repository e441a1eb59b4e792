import BridgeStore
import Foundation
import Logging

/// A password sign-in on a parked request, for the sign-in page and the authorization challenge endpoint alike, so
/// that the throttle and the account rules are written once: a read (the request, the account, the recent failures
/// under each throttle key) before bcrypt, then a write (the session, or the failure) after, so that no transaction
/// is open while the hash is computed.
struct PasswordSignIn: Sendable {
    let environment: AuthorizeEnvironment

    enum Outcome: Sendable {
        /// A key is over the limit: try again after this many seconds (RFC 6585 §4).
        case throttled(retryAfterSeconds: Int)
        /// Unknown name or wrong password (one answer for both, so names cannot be probed); counted as a failure.
        case wrongCredentials
        /// The new session's secret (already stored) and its user.
        case signedIn(SecretToken, UserRecord)
    }

    func prepare(interaction: TokenDigest, signInName: String, keys: [String], at now: Date) async throws
        -> SignInPreparation
    {
        try await callStore {
            try await environment.store.prepareSignIn(
                interaction: interaction, signInName: signInName, throttleKeys: keys,
                failuresSince: environment.throttle.windowStart(at: now), at: now)
        }
    }

    /// `keys[0]` is the account's key: its failures are forgotten after a success.
    func check(
        name: String, password: String, _ prepared: SignInPreparation, keys: [String], at now: Date, logger: Logger
    ) async throws -> Outcome {
        if let wait = environment.throttle.retryAfter(failures: prepared.failures) {
            logger.notice("sign-in throttled")
            return .throttled(retryAfterSeconds: wait)
        }
        let user = name.isEmpty ? nil : prepared.user
        guard try await environment.hasher.verify(password, hash: user?.passwordHash), let user else {
            try await callStore { try await environment.store.recordSignInFailure(keys: keys, at: now) }
            logger.info("sign-in failed")
            return .wrongCredentials
        }
        let session = SecretToken()
        let record = SessionRecord(
            digest: session.digest, userID: user.id, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)))
        try await callStore { try await environment.store.completeSignIn(record, clearingFailuresOf: keys[0]) }
        logger.info("signed in", metadata: ["user": .string(user.id)])
        return .signedIn(session, user)
    }
}
