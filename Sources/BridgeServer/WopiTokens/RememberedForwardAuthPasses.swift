import BridgeStore
import Foundation
import SignInProtocol

/// The forward-auth checks that passed a moment ago, keyed by everything that decided the verdict (the sub-request's
/// `ForwardedWopiRequest`: original URI with its token, original method, forwarded host, `Authorization`), so a
/// proxy's burst of checks for one document's calls opens the seal once (`WopiForwardAuthPipeline`). A pass is kept
/// by `RecentAnswers`' rule, as the verifier keeps the grant's status: dropped on any store change counted since,
/// and after `tokens.statusCacheMilliseconds`; at most `capacity` entries, whatever the number of distinct tokens.
///
/// Only passes are kept. A refusal is cheap to compute again (a malformed, forged or expired token is refused before
/// the store; a revoked grant's status is kept by the verifier anyway), and keeping refusals would let anyone fill
/// the entries with junk tokens and push out the passes; a pass needs a token this server sealed.
struct RememberedForwardAuthPasses: Sendable {
    struct Pass: Sendable {
        var grantID: GrantID
        var expiresAt: Date
        var wopiSource: String
    }

    /// A pass holds a token and an original URI, each within `limits.maxHeaderValueBytes`: a few MiB at most.
    static let capacity = 4096

    private let passes: RecentAnswers<ForwardedWopiRequest, Pass>

    init(maxAge: TimeInterval) {
        passes = RecentAnswers(maxAge: maxAge, capacity: Self.capacity)
    }

    func keep(
        _ verified: (answer: WopiForwardAuthAnswer, grantID: GrantID), for request: ForwardedWopiRequest, changeCounter: UInt64,
        at now: Date
    ) {
        let pass = Pass(
            grantID: verified.grantID, expiresAt: Milliseconds.date(verified.answer.tokenExpiry),
            wopiSource: verified.answer.wopiSource)
        passes.keep(pass, for: request, changeCounter: changeCounter, at: now)
    }

    func value(for request: ForwardedWopiRequest, changeCounter: UInt64, at now: Date) -> Pass? {
        passes.value(for: request, changeCounter: changeCounter, at: now)
    }

    /// Entries held now (for tests).
    var count: Int { passes.count }
}
