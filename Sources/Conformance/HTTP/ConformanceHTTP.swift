import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The suite's only way onto the network: AsyncHTTPClient with redirects disabled (each check decides which
/// `Location` to follow, and nothing ever loads the final redirect URI), a timeout per request cut short by the run's
/// deadline, a cookie jar per party, and a record of every exchange for the report. An origin that never answered is
/// not tried again: one unreachable endpoint costs one timeout, not one per check.
public actor ConformanceHTTP {
    public struct Request: Sendable {
        public var method: String
        public var url: String
        public var headers: [(name: String, value: String)]
        public var body: String?

        public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: String? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        /// A form POST (`application/x-www-form-urlencoded`).
        public static func form(_ url: String, _ fields: [(String, String)], headers: [(name: String, value: String)] = []) -> Request {
            let body = fields.map { FormEncoding.encode($0.0) + "=" + FormEncoding.encode($0.1) }.joined(separator: "&")
            return Request(
                method: "POST", url: url,
                headers: headers + [(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: body)
        }
    }

    /// The request never got an answer (refused, timed out, TLS failed).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var url: String
        public var reason: String
        public var description: String { "\(SecretMask.maskURL(url)): \(reason)" }
    }

    private let client: HTTPClient
    private var jars: [Party: CookieJar] = [:]
    public private(set) var exchanges: [RecordedExchange] = []
    /// The check the next requests belong to, for the report.
    private var currentCheck: String?
    /// Every OAuth error the host answered (RFC 6749 §4.1.2.1, §5.2), for the checks that judge them all.
    public private(set) var errors: [ObservedError] = []
    /// Origins that answered at least once, and why the others failed.
    private var answered: Set<String> = []
    private var unreachable: [String: String] = [:]
    static let maxBodyBytes = 1 << 20
    let requestTimeout: Duration
    /// After this instant every request fails at once (`--deadline`).
    public let deadline: ContinuousClock.Instant

    public init(timeoutSeconds: Int64 = 5, deadline: ContinuousClock.Instant = .now + .seconds(120)) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(timeoutSeconds), read: .seconds(timeoutSeconds)))
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        requestTimeout = .seconds(timeoutSeconds)
        self.deadline = deadline
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    func begin(check id: String?) { currentCheck = id }

    /// Forgets a party's cookies: a new browser for the next sign-in.
    public func clearCookies(of party: Party) { jars[party] = CookieJar() }

    public func send(_ request: Request, as party: Party) async throws(Failure) -> ObservedResponse {
        let host = URLComponents(string: request.url)?.host ?? ""
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers.add(name: "User-Agent", value: "signin-bridge-conform")
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let cookie = jars[party]?.header(host: host) { outgoing.headers.add(name: "Cookie", value: cookie) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(string: body)) }
        var record = RecordedExchange(
            party: party, method: request.method, url: SecretMask.maskURL(request.url), status: nil, location: nil,
            checkID: currentCheck)
        let origin = URLParts.origin(request.url) ?? request.url
        if let reason = unreachable[origin] {
            exchanges.append(record)
            throw Failure(url: request.url, reason: "not tried again, \(origin) did not answer before: \(reason)")
        }
        let remaining = min(requestTimeout, deadline - .now)
        guard remaining > .zero else {
            exchanges.append(record)
            throw Failure(url: request.url, reason: "the run's --deadline passed")
        }
        let (seconds, attoseconds) = remaining.components
        let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            let observed = ObservedResponse(
                status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: Array(buffer: body))
            var jar = jars[party] ?? CookieJar()
            jar.store(setCookie: observed.values("Set-Cookie"), host: host)
            jars[party] = jar
            record.status = observed.status
            record.location = observed.value("Location").map(SecretMask.maskURL)
            exchanges.append(record)
            answered.insert(origin)
            errors += ObservedError.all(in: observed, url: request.url, checkID: currentCheck)
            return observed
        } catch {
            exchanges.append(record)
            var reason = "\(error)"
            // The client's own read and connect timeouts are set to --timeout too; whichever fires first, it is one.
            if let timedOut = error as? HTTPClientError,
                [.deadlineExceeded, .readTimeout, .connectTimeout].contains(timedOut)
            {
                reason = remaining < requestTimeout
                    ? "stopped by the run's --deadline" : "no answer within --timeout (\(requestTimeout.components.seconds) s)"
            }
            if !answered.contains(origin) { unreachable[origin] = reason }
            throw Failure(url: request.url, reason: reason)
        }
    }
}

/// `application/x-www-form-urlencoded` and query values: everything but unreserved characters percent-encoded
/// (RFC 3986 §2.3), so `+`, `&` and `=` in values survive.
enum FormEncoding {
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    static func query(_ fields: [(String, String)]) -> String {
        fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
