import Foundation

/// Runs the selected checks of the registry in order against one host.
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
        self.checks = options.groups.isEmpty ? checks : checks.filter { options.groups.contains($0.group) }
    }

    /// `progress` is called before each check with its id and position, for a live line on a terminal.
    public func run(
        progress: @Sendable (_ id: String, _ index: Int, _ count: Int) -> Void = { _, _, _ in }
    ) async throws(Failure) -> ConformanceReport {
        let target = options.bootstrapURL
        guard let scheme = URLComponents(string: target)?.scheme?.lowercased(), URLParts.origin(target) != nil,
            scheme == "https" || scheme == "http"
        else { throw .badTarget("\(target) is not an absolute http(s) URL") }
        if scheme == "http", !(options.allowLoopbackHTTP && URLParts.isLoopbackHTTP(target)) {
            throw .badTarget("\(target) is plain http: use https, or --insecure-http-loopback for a loopback host")
        }
        let http = ConformanceHTTP(timeoutSeconds: options.timeoutSeconds)
        let session = ConformanceSession(options: options, http: http)
        let started = Date()
        if case .failure(let failure) = await session.unauthenticatedBootstrap() {
            await http.shutdown()
            throw .unreachable(failure.reason)
        }
        var results = [CheckResult]()
        for (index, check) in checks.enumerated() {
            progress(check.id, index, checks.count)
            await http.begin(check: check.id)
            let clock = ContinuousClock.now
            let outcome: CheckOutcome
            do {
                outcome = try await check.init().run(in: session)
            } catch {
                outcome = .skip(error.reason)
            }
            let elapsed = ContinuousClock.now - clock
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            results.append(CheckResult(check: check.descriptor, outcome: outcome, durationSeconds: seconds))
        }
        let exchanges = await http.exchanges
        await http.shutdown()
        return ConformanceReport(target: target, startedAt: started, results: results, exchanges: exchanges)
    }
}
