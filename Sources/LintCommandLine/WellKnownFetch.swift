import Foundation
import ManifestLint

/// What `--fetch` asks of an HTTPS client: both association files of each origin, as the platforms fetch them,
/// trusting the extra roots of a PEM file besides the system's. `signin-bridge lint` passes `LintFetch`'s; the
/// standalone `signin-bridge-lint` passes none, so that it links no HTTPS client (AsyncHTTPClient, NIO and BoringSSL
/// were most of its size and of its start-up: docs/lint-performance.md).
public typealias WellKnownFetch =
    @Sendable (_ origins: [WellKnownOrigin], _ additionalRootsFile: String?) async throws -> [WellKnownResponse]

/// An origin `--fetch` names: `https://host[:port]` or a bare `host[:port]`; anything else (http, a path, a query,
/// credentials) is refused, since the platforms only ever look at `https://HOST/.well-known/`.
public struct WellKnownOrigin: Equatable, Sendable {
    /// `https://host[:port]`, the host as given.
    public let origin: String
    /// The host in lower case, as the cross-checks compare it.
    public let host: String

    public init(_ argument: String) throws(LintUsageError) {
        let withScheme = argument.contains("://") ? argument : "https://\(argument)"
        guard let components = URLComponents(string: withScheme), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.query == nil,
            components.path.isEmpty || components.path == "/"
        else {
            throw LintUsageError("--fetch \(argument): wants https://HOST (the platforms fetch association files over https only)")
        }
        let port = components.port.map { ":\($0)" } ?? ""
        origin = "https://\(host)\(port)"
        self.host = host.lowercased()
    }
}
