import JWTKit
import NIOConcurrencyHelpers

/// Another server's signing keys, kept as a resource server that people trust keeps them: fetched once, kept for
/// as long as the provider's `Cache-Control` says (within `KeySetCachePolicy`'s floor and ceiling), fetched again in
/// the background once stale while the keys it has keep verifying, and fetched at once for a `kid` it does not know
/// (the provider rotated, OpenID Connect Core §10.1.1), one fetch at a time, at most once per `unknownKeyInterval`,
/// the request waiting for it no longer than `unknownKeyWait`. A `kid` seen between two allowed fetches is
/// `unavailable` (ask again shortly) unless a fetch made after it was first seen has shown it is not the provider's. A provider that cannot be reached or answers garbage changes
/// nothing: the keys known keep working, and an unknown `kid` is `unavailable` (the caller answers 503), never a
/// crash. Every fetch and every lookup is reported to `events` (the metrics).
actor RemoteKeySet {
    /// What a fetch brought: the document and its `Cache-Control` field.
    struct Fetched: Sendable {
        var body: [UInt8]
        var cacheControl: String?
    }

    enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// No key has the token's `kid`, even in a key set fetched just now: the token is not the provider's.
        case unknownKey
        case badSignature
        /// The `kid` is unknown and no fresh key set could be had: ask again later.
        case unavailable(String)

        var description: String {
            switch self {
            case .unknownKey: "signed with a key not in the provider's JWKS"
            case .badSignature: "the signature does not verify"
            case .unavailable(let why): "the provider's keys cannot be fetched now: \(why)"
            }
        }
    }

    enum Event: Sendable, Hashable {
        /// A fetch ended: `loaded`, or a `KeySetDocument.Refusal` label or `unreachable` with the reason.
        case fetch(outcome: String, reason: String?)
        /// A token's key was among those kept.
        case hit
        /// A token's key was not kept.
        case miss
    }

    let policy: KeySetCachePolicy
    private let events: @Sendable (Event) -> Void
    private var document: KeySetDocument?
    private var freshUntil: ContinuousClock.Instant?
    private var lastAttempt: ContinuousClock.Instant?
    private var lastFailure: String?
    private var refresh: Task<String?, Never>?
    /// `kid`s a fetch made after they were asked for did not bring: the token's fault (401), not the provider's.
    /// Emptied by every load, and bounded, so made-up `kid`s cannot grow it.
    private var absentKids = Set<String>()
    static let maximumAbsentKids = 1024

    init(policy: KeySetCachePolicy = KeySetCachePolicy(), events: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.policy = policy
        self.events = events
    }

    /// How many fetches were started (tests, and `/health/ready`'s view of a provider never reached).
    private(set) var fetches = 0

    /// True once a key set was loaded: the provider's keys are usable.
    var hasKeys: Bool { document != nil }

    /// Verifies the token's signature with the key its `kid` names; `fetch` gives the JWKS when it must be read.
    func verify(_ token: String, kid: String?, fetch: @escaping @Sendable () async throws -> Fetched) async throws(Problem) {
        let now = ContinuousClock.now
        if let document, kid.map(document.kids.contains) ?? true {
            events(.hit)
            if let freshUntil, now >= freshUntil, mayFetch(at: now) { _ = start(fetch) }
            return try await Self.check(token, with: document.keys)
        }
        events(.miss)
        let running: Task<String?, Never>
        if let refresh {
            running = refresh
        } else if mayFetch(at: now) {
            running = start(fetch)
        } else if let lastFailure {
            throw .unavailable(lastFailure)
        } else if let kid, !absentKids.contains(kid) {
            throw .unavailable("the key set was fetched moments ago; the next fetch for an unknown kid is allowed within \(policy.unknownKeyInterval)")
        } else {
            throw .unknownKey
        }
        // The first fetch ever has nothing to fall back on: it gets the fetch's own timeout, not the short wait.
        let wait = document == nil ? nil : policy.unknownKeyWait
        guard let outcome = await Self.awaitRefresh(running, within: wait) else {
            throw .unavailable("no JWKS within \(policy.unknownKeyWait)")
        }
        if let failure = outcome { throw .unavailable(failure) }
        guard let document, kid.map(document.kids.contains) ?? true else {
            if let kid {
                if absentKids.count >= Self.maximumAbsentKids { absentKids.removeAll() }
                absentKids.insert(kid)
            }
            throw .unknownKey
        }
        try await Self.check(token, with: document.keys)
    }

    private func mayFetch(at now: ContinuousClock.Instant) -> Bool {
        refresh == nil && (lastAttempt.map { now - $0 >= policy.unknownKeyInterval } ?? true)
    }

    /// Starts the one fetch; its result is nil when loaded, else why not.
    private func start(_ fetch: @escaping @Sendable () async throws -> Fetched) -> Task<String?, Never> {
        fetches += 1
        lastAttempt = .now
        let task = Task { await self.load(fetch) }
        refresh = task
        return task
    }

    private func load(_ fetch: @Sendable () async throws -> Fetched) async -> String? {
        defer { refresh = nil }
        let fetched: Fetched
        do {
            fetched = try await fetch()
        } catch {
            return failed("unreachable", "\(error)")
        }
        do {
            document = try await KeySetDocument.read(fetched.body)
        } catch {
            return failed(error.label, error.description)
        }
        freshUntil = .now + policy.lifetime(cacheControl: fetched.cacheControl)
        absentKids.removeAll()
        lastFailure = nil
        events(.fetch(outcome: "loaded", reason: nil))
        return nil
    }

    private func failed(_ label: String, _ reason: String) -> String {
        lastFailure = reason
        events(.fetch(outcome: label, reason: reason))
        return reason
    }

    private static func check(_ token: String, with keys: JWTKeyCollection) async throws(Problem) {
        do {
            _ = try await keys.verify(token, as: SignatureOnly.self)
        } catch {
            throw .badSignature
        }
    }

    /// The refresh's outcome, or nil when `wait` passed first (the refresh goes on, for the requests after this one).
    private static func awaitRefresh(_ refresh: Task<String?, Never>, within wait: Duration?) async -> String?? {
        guard let wait else { return .some(await refresh.value) }
        let waiting = NIOLockedValueBox<CheckedContinuation<String??, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            waiting.withLockedValue { $0 = continuation }
            Task {
                let outcome = await refresh.value
                waiting.withLockedValue { $0.take() }?.resume(returning: .some(outcome))
            }
            Task {
                try? await Task.sleep(for: wait)
                waiting.withLockedValue { $0.take() }?.resume(returning: nil)
            }
        }
    }
}

/// The signature alone: jwt-kit verifies it, and the caller then checks the claims with the server's clock.
struct SignatureOnly: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
