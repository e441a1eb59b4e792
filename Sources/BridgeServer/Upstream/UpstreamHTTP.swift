import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import SignInProtocol

/// Outgoing calls to upstream providers: one `HTTPClient` for the server, redirects off (a provider that
/// redirects its token endpoint is misconfigured, and following would send the code elsewhere), each call bounded
/// by the upstream's timeout, each answer read up to `limit` bytes.
struct UpstreamHTTP: Sendable {
    let client: UpstreamHTTPClient
    static let limit = 256 * 1024

    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        // A refused connection is the answer (the provider is down); AHC would otherwise retry until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        /// How long the answer may be kept (RFC 9111 §5.2), for the JWKS.
        var cacheControl: String? = nil
    }

    func get(_ url: String, bearer: String? = nil, timeout seconds: Int) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        return try await send(request, timeout: seconds)
    }

    /// A form post (`application/x-www-form-urlencoded`), with HTTP Basic client authentication when `basic` is
    /// given: both parts form-encoded first, as RFC 6749 §2.3.1 says.
    func postForm(_ url: String, _ form: FormParameters, basic: (String, String)?, timeout seconds: Int) async throws
        -> Answer
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if let (id, secret) = basic {
            let pair = PercentEncoding.encode(id) + ":" + PercentEncoding.encode(secret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: form.encoded))
        return try await send(request, timeout: seconds)
    }

    private func send(_ request: HTTPClientRequest, timeout seconds: Int) async throws -> Answer {
        let response: HTTPClientResponse
        do {
            response = try await client.started.execute(request, timeout: .seconds(Int64(seconds)))
        } catch {
            throw UpstreamFailure(.unreachable, "\(request.method.rawValue) \(Self.withoutQuery(request.url)): \(Self.describe(error))")
        }
        var body = [UInt8]()
        do {
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= Self.limit else {
                    throw UpstreamFailure(.badResponse, "\(Self.withoutQuery(request.url)) answered more than \(Self.limit) bytes")
                }
                body += chunk.readableBytesView
            }
        } catch let failure as UpstreamFailure {
            throw failure
        } catch {
            throw UpstreamFailure(.unreachable, "\(Self.withoutQuery(request.url)): \(Self.describe(error))")
        }
        let status = Int(response.status.code)
        if status >= 500 { throw UpstreamFailure(.serverError, "\(Self.withoutQuery(request.url)) answered \(status)") }
        return Answer(status: status, body: body, cacheControl: response.headers.first(name: "Cache-Control"))
    }

    static func withoutQuery(_ url: String) -> String { String(url.prefix { $0 != "?" }) }

    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let client = error as? HTTPClientError { return "\(client)" }
        return String(describing: type(of: error))
    }
}

/// The server's one upstream `HTTPClient`, made on its first call: a server built with upstreams configured but that
/// never calls one (a CLI command, a test) then has no client to shut down. `UpstreamClientShutdown` shuts it down.
final class UpstreamHTTPClient: Sendable {
    private let client = NIOLockedValueBox<HTTPClient?>(nil)

    /// The client, made now if there is none yet.
    var started: HTTPClient {
        client.withLockedValue { client in
            if let client { return client }
            let made = UpstreamHTTP.makeClient()
            client = made
            return made
        }
    }

    /// Shuts the client down, if one was made; a later call makes a new one.
    func shutdown() async throws {
        let running = client.withLockedValue { client in
            defer { client = nil }
            return client
        }
        try await running?.shutdown()
    }
}
