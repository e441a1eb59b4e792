import AsyncHTTPClient
import Foundation
import LintCommandLine
import ManifestLint
import NIOCore
import NIOSSL

/// `lint --fetch`: asks each host for its assetlinks.json and apple-app-site-association the way the platforms'
/// verifiers do (one GET over https, certificate verified, no redirect followed, body read up to the size limit)
/// and hands what it saw to the linter. Failures become findings, not errors: an unreachable host is a result.
/// Its own target so that only `signin-bridge` links the HTTPS client; `signin-bridge-lint` starts without it.
public struct WellKnownFetcher: Sendable {
    /// What `signin-bridge lint` hands `LintArguments.run(toolVersion:fetch:)`.
    public static let fetch: WellKnownFetch = { origins, additionalRootsFile in
        try await WellKnownFetcher(additionalRootsFile: additionalRootsFile).fetch(origins: origins)
    }

    /// A PEM file of extra roots to trust besides the system's (a staging CA; the tests' own).
    public var additionalRootsFile: String?
    public var timeout: TimeAmount

    public init(additionalRootsFile: String? = nil, timeout: TimeAmount = .seconds(10)) {
        self.additionalRootsFile = additionalRootsFile
        self.timeout = timeout
    }

    /// Both association files of every origin, in the order given.
    public func fetch(origins: [WellKnownOrigin]) async throws -> [WellKnownResponse] {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let additionalRootsFile { tls.additionalTrustRoots = [.file(additionalRootsFile)] }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        // A refused connection or a bad certificate is the answer; AHC would otherwise retry until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        var responses = [WellKnownResponse]()
        for origin in origins {
            for kind in [FileKind.assetLinks, .appSiteAssociation] {
                let url = origin.origin + WellKnownResponse.path(of: kind)
                let outcome = await fetch(url, limit: WellKnownResponse.readLimit(of: kind), client: client)
                responses.append(WellKnownResponse(url: url, host: origin.host, kind: kind, outcome: outcome))
            }
        }
        try await client.shutdown()
        return responses
    }

    private func fetch(_ url: String, limit: Int, client: HTTPClient) async -> WellKnownResponse.Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "signin-bridge-lint")
        do {
            let response = try await client.execute(request, timeout: timeout)
            var body = [UInt8]()
            for try await chunk in response.body {
                body += chunk.readableBytesView.prefix(limit - body.count)
                if body.count >= limit { break }
            }
            return .answered(
                status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                location: response.headers.first(name: "Location"), body: body, truncated: body.count >= limit)
        } catch {
            return .failed(reason: Self.describe(error))
        }
    }

    /// One line a host engineer can act on, without the whole error dump.
    static func describe(_ error: any Error) -> String {
        if let ssl = error as? NIOSSLError {
            // BoringSSL's reason is the upper-case name after "OPENSSL_internal:"; the rest is a build path.
            let text = String(describing: ssl)
            guard let marker = text.range(of: "OPENSSL_internal:") else { return "TLS: \(text)" }
            let reason = text[marker.upperBound...].prefix { $0.isUppercase || $0 == "_" || $0.isNumber }
            if reason == "CERTIFICATE_VERIFY_FAILED" {
                return "TLS: the certificate does not verify (not from a trusted root, expired, or for another host)"
            }
            return "TLS: handshake failed (\(reason))"
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let client = error as? HTTPClientError { return "\(client)" }
        return String(describing: error)
    }
}
