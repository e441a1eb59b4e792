import Foundation

/// Runs the selected checks of the registry in order against one host, reporting each result as it is known.
public struct ConformanceRunner: Sendable {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The bootstrap URL is not an absolute http(s) URL, or is `http` where that is not allowed.
        case badTarget(String)
        /// Nothing answered at the bootstrap URL.
        case unreachable(String)

        public var description: String {
            switch self {
            case .badTarget(let reason): reason
            case .unreachable(let reason): "host unreachable: \(reason)"
            }
        }
    }

    public var options: ConformanceOptions
    public var checks: [any ConformanceCheck.Type]

    public init(options: ConformanceOptions, checks: [any ConformanceCheck.Type] = CheckRegistry.all) {
        self.options = options
        self.checks = options.groups.isEmpty ? checks : checks.filter { options.groups.contains($0.descriptor.group) }
    }

    /// `starting` is called before each check with its id and position, `announce` before a long step inside one
    /// ("signing in as Browser…"), `finished` with each result as soon as it is known.
    public func run(
        starting: @escaping @Sendable (_ id: String, _ index: Int, _ count: Int) -> Void = { _, _, _ in },
        announce: @escaping @Sendable (String) -> Void = { _ in },
        finished: @escaping @Sendable (CheckResult) -> Void = { _ in }
    ) async throws(Failure) -> ConformanceReport {
        guard let target = options.bootstrapURL ?? options.issuer else { throw .badTarget("give a bootstrap URL or --issuer") }
        guard let scheme = URLComponents(string: target)?.scheme?.lowercased(), URLParts.origin(target) != nil,
            scheme == "https" || scheme == "http"
        else { throw .badTarget("\(target) is not an absolute http(s) URL") }
        if scheme == "http", !(options.allowLoopbackHTTP && URLParts.isLoopbackHTTP(target)) {
            throw .badTarget("\(target) is plain http: use https, or --insecure-http-loopback for a loopback host")
        }
        let deadline = ContinuousClock.now + .seconds(options.deadlineSeconds)
        let http = ConformanceHTTP(timeoutSeconds: options.timeoutSeconds, deadline: deadline)
        let session = ConformanceSession(options: options, http: http, announce: announce)
        let started = Date()
        announce(options.bootstrapURL != nil ? "asking \(target) for its challenge…" : "reading \(target)'s discovery…")
        let first = options.bootstrapURL != nil ? await session.unauthenticatedBootstrap().map { _ in () } : await session.discovery().map { _ in () }
        if case .failure(let failure) = first {
            await http.shutdown()
            throw .unreachable(failure.reason)
        }
        var results = [CheckResult]()
        for (index, check) in checks.enumerated() {
            starting(check.descriptor.id, index, checks.count)
            await http.begin(check: check.descriptor.id)
            let clock = ContinuousClock.now
            let outcome: CheckOutcome
            if options.bootstrapURL == nil, check.descriptor.group.needsBootstrapper {
                outcome = .skip(ConformanceSession.noBootstrapper)
            } else if clock >= deadline {
                outcome = .skip("not started: the run's --deadline of \(options.deadlineSeconds) s passed")
            } else {
                do {
                    outcome = try await check.init().run(in: session)
                } catch {
                    outcome = .skip(error.reason)
                }
            }
            let elapsed = ContinuousClock.now - clock
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let result = CheckResult(check: check.descriptor, outcome: outcome, durationSeconds: seconds)
            results.append(result)
            finished(result)
        }
        let exchanges = await http.exchanges
        await http.shutdown()
        return ConformanceReport(target: target, startedAt: started, results: results, exchanges: exchanges)
    }
}
