import NIOConcurrencyHelpers
import Testing

@testable import BridgeServer

/// Another server's JWKS kept as the resource servers people trust keep it: no fetch per token, a background
/// refetch once stale, one shared and rate-limited fetch for an unknown `kid`, and the known keys working on while
/// the provider is unreachable or answers garbage. Each test waits on the key set's own events, never on the clock.
@Suite struct RemoteKeySetTests {
    /// A provider whose JWKS a test changes, can stop (fetches throw) or hold (fetches wait until released).
    final class Provider: Sendable {
        struct State {
            var body: [UInt8]
            var cacheControl: String?
            var down = false
            var held: [CheckedContinuation<Void, Never>]? = nil
        }
        let state: NIOLockedValueBox<State>
        init(_ keys: SigningKeySet) { state = NIOLockedValueBox(State(body: Array(keys.jwksJSON.utf8))) }

        struct Down: Error {}

        func fetch() async throws -> RemoteKeySet.Fetched {
            let holding = state.withLockedValue { $0.held != nil }
            if holding {
                await withCheckedContinuation { continuation in
                    let release = state.withLockedValue { state -> Bool in
                        guard state.held != nil else { return true }
                        state.held?.append(continuation)
                        return false
                    }
                    if release { continuation.resume() }
                }
            }
            let now = state.withLockedValue { $0 }
            if now.down { throw Down() }
            return RemoteKeySet.Fetched(body: now.body, cacheControl: now.cacheControl)
        }

        func hold() { state.withLockedValue { $0.held = $0.held ?? [] } }
        func release() { for waiting in state.withLockedValue({ s in defer { s.held = nil }; return s.held ?? [] }) { waiting.resume() } }
        func serve(_ keys: SigningKeySet) { state.withLockedValue { $0.body = Array(keys.jwksJSON.utf8) } }
        func serve(_ text: String) { state.withLockedValue { $0.body = Array(text.utf8) } }
        func stop() { state.withLockedValue { $0.down = true } }
    }

    /// The key set's events as a stream, so a test can wait for a fetch to end.
    struct Observed {
        let keys: RemoteKeySet
        let events: AsyncStream<RemoteKeySet.Event>

        init(_ policy: KeySetCachePolicy) {
            let (events, continuation) = AsyncStream.makeStream(of: RemoteKeySet.Event.self)
            self.events = events
            keys = RemoteKeySet(policy: policy) { continuation.yield($0) }
        }

        /// Waits for the next fetch to end and returns its outcome.
        func nextFetch() async -> String? {
            for await event in events { if case .fetch(let outcome, _) = event { return outcome } }
            return nil
        }
    }

    static func token(_ keys: SigningKeySet) throws -> (String, String?) {
        let token = try CompactJWSSigner(es256: keys.signingKey, type: "JWT").sign(payload: Array(#"{"sub":"a"}"#.utf8))
        return (token, try IDTokenCheck.header(of: token).kid)
    }

    func verify(_ keys: RemoteKeySet, _ signer: SigningKeySet, _ provider: Provider) async throws {
        let (token, kid) = try Self.token(signer)
        try await keys.verify(token, kid: kid) { try await provider.fetch() }
    }

    @Test func aKnownKeyFetchesNothing() async throws {
        let signer = try await SigningKeySet.generate()
        let provider = Provider(signer)
        let keys = RemoteKeySet()
        for _ in 0..<5 { try await verify(keys, signer, provider) }
        #expect(await keys.fetches == 1)
    }

    /// A stale key set is fetched again in the background while its keys keep verifying: a provider's rotation is
    /// picked up without a restart, and no request waits for it.
    @Test func aStaleKeySetIsRefreshedInTheBackground() async throws {
        let (old, rotated) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(old)
        provider.state.withLockedValue { $0.cacheControl = "max-age=0" }
        let observed = Observed(KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        try await verify(observed.keys, old, provider)
        #expect(await observed.nextFetch() == "loaded")
        provider.serve(rotated)
        try await verify(observed.keys, old, provider)  // stale: answered from the kept keys, refetch started
        #expect(await observed.nextFetch() == "loaded")
        #expect(await observed.keys.fetches == 2)
        try await verify(observed.keys, rotated, provider)
        #expect(await observed.keys.fetches >= 2)
    }

    /// Many requests with one unknown `kid` at once make one fetch, and each of them is answered by it.
    @Test func anUnknownKidMakesOneFetchForEveryoneWaiting() async throws {
        let (old, rotated) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(old)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero, unknownKeyWait: .seconds(600)))
        try await verify(keys, old, provider)
        provider.serve(rotated)
        provider.hold()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { try await verify(keys, rotated, provider) } }
            while provider.state.withLockedValue({ $0.held?.count ?? 0 }) == 0 { await Task.yield() }
            provider.release()
            try await group.waitForAll()
        }
        #expect(await keys.fetches == 2)
    }

    /// The provider down: the keys known keep working, an unknown `kid` is unavailable (503), not unknown (401).
    @Test func anUnreachableProviderLeavesTheKnownKeysWorking() async throws {
        let (known, stranger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        try await verify(keys, known, provider)
        provider.stop()
        try await verify(keys, known, provider)
        await #expect(throws: RemoteKeySet.Problem.unavailable("Down()")) { try await verify(keys, stranger, provider) }
        try await verify(keys, known, provider)
    }

    /// A fetch that does not answer holds a request with an unknown `kid` only for `unknownKeyWait`.
    @Test func anUnknownKidWaitsForTheFetchOnlySoLong() async throws {
        let (known, stranger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero, unknownKeyWait: .milliseconds(50)))
        try await verify(keys, known, provider)
        provider.hold()
        await #expect(throws: RemoteKeySet.Problem.unavailable("no JWKS within 0.05 seconds")) {
            try await verify(keys, stranger, provider)
        }
        try await verify(keys, known, provider)
        provider.release()
    }

    /// Garbage from the provider is refused and reported; the keys kept before it stay in use.
    @Test func garbageReplacesNothing() async throws {
        let (known, stranger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let observed = Observed(KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        try await verify(observed.keys, known, provider)
        #expect(await observed.nextFetch() == "loaded")
        provider.serve(#"{"keys":[{"kty":"oct","kid":"x","k":"c2VjcmV0"}]}"#)
        await #expect(throws: RemoteKeySet.Problem.self) { try await verify(observed.keys, stranger, provider) }
        #expect(await observed.nextFetch() == "unsafe_key")
        try await verify(observed.keys, known, provider)
    }

    /// A `kid` the freshly fetched key set does not have either is the token's fault: unknown (401), not unavailable.
    @Test func aKidStillUnknownAfterTheFetchIsUnknown() async throws {
        let (known, stranger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        try await verify(keys, known, provider)
        await #expect(throws: RemoteKeySet.Problem.unknownKey) { try await verify(keys, stranger, provider) }
        #expect(await keys.fetches == 2)
    }

    /// A rotation soon after a fetch: the new `kid` is unavailable (503, ask again) until the next fetch is allowed,
    /// never unknown (401, which would send Office to sign in again); once a fetch may be made, it verifies.
    @Test func aKidSeenBetweenTwoAllowedFetchesIsUnavailableUntilTheNext() async throws {
        let (known, rotated) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .seconds(3600)))
        try await verify(keys, known, provider)
        provider.serve(rotated)
        do {
            try await verify(keys, rotated, provider)
            Issue.record("verified without a fetch")
        } catch RemoteKeySet.Problem.unavailable {
        } catch {
            Issue.record("\(error) instead of unavailable")
        }
        #expect(await keys.fetches == 1)

        let allowed = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        provider.serve(known)
        try await verify(allowed, known, provider)
        provider.serve(rotated)
        try await verify(allowed, rotated, provider)
        #expect(await allowed.fetches == 2)
    }

    /// A `kid` that a fetch made after it was asked for did not bring is the token's fault: unknown (401) from then
    /// on, without another fetch, until the next load.
    @Test func aKidTheLastFetchDidNotBringStaysUnknownWithoutAnotherFetch() async throws {
        let (known, stranger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .seconds(3600)))
        // The first request ever fetches; the key set it brings has no such kid.
        await #expect(throws: RemoteKeySet.Problem.unknownKey) { try await verify(keys, stranger, provider) }
        await #expect(throws: RemoteKeySet.Problem.unknownKey) { try await verify(keys, stranger, provider) }
        #expect(await keys.fetches == 1)
        try await verify(keys, known, provider)
    }

    @Test func aForgedSignatureWithAKnownKidIsRefused() async throws {
        let (known, forger) = (try await SigningKeySet.generate(), try await SigningKeySet.generate())
        let provider = Provider(known)
        let keys = RemoteKeySet()
        try await verify(keys, known, provider)
        let (real, kid) = try Self.token(known)
        let (forged, _) = try Self.token(forger)
        let spliced = real.split(separator: ".").prefix(2).joined(separator: ".") + "." + forged.split(separator: ".")[2]
        await #expect(throws: RemoteKeySet.Problem.badSignature) {
            try await keys.verify(spliced, kid: kid) { try await provider.fetch() }
        }
    }
}
