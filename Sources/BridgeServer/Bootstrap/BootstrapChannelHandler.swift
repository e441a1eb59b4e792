import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Answers `GET`/`POST /wopibootstrapper` inside the NIO pipeline, on the event loop, when the answer needs nothing
/// awaited: the unauthenticated request with the prepared challenge, and an authenticated one whose token and store
/// status were seen a moment ago (`RememberedBootstraps`; Office bootstraps again and again with one token). No Swift
/// task, no router, no middleware: profiling showed a Hummingbird route spending most of its ~32 µs of CPU per
/// request in the async machinery (task switches, retain/release, generic metadata), against nginx's ~4 µs.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler`, so idle timeouts and graceful shutdown see these
/// requests like any other. Anything else (a query, a `Connection` or `Expect` header, a token not seen yet) goes to
/// the application, and so does any request that arrives while an earlier one on the same connection is still being
/// answered there, so responses never overtake each other on a pipelined connection.
final class BootstrapChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What this handler will write once the request it answers has ended (its body is dropped).
    private enum Pending {
        case challenge
        case bootstrap(RememberedBootstraps.Answer)
    }

    let challenge: PreparedChallenge
    let bootstraps: RememberedBootstraps?
    /// Requests handed to the application whose response has not ended yet.
    private var outstanding = 0
    private var pending: Pending?
    /// The method and arrival (monotonic nanoseconds) of the request being answered, for its log line.
    private var method = HTTPRequest.Method.get
    private var arrival: Int64 = 0

    init(challenge: PreparedChallenge, bootstraps: RememberedBootstraps?) {
        self.challenge = challenge
        self.bootstraps = bootstraps
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if outstanding == 0, let answer = answer(to: head) {
                pending = answer
                method = head.method
                arrival = PreparedChallenge.monotonicNanoseconds()
            } else {
                outstanding += 1
                context.fireChannelRead(data)
            }
        case .body:
            if pending == nil { context.fireChannelRead(data) }
        case .end:
            switch pending {
            case .challenge:
                pending = nil
                context.write(wrapOutboundOut(.head(challenge.response())), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                challenge.answered(method, arrival)
            case .bootstrap(let answer):
                pending = nil
                context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                bootstraps?.answered(answer, method: method, arrival: arrival)
            case nil:
                context.fireChannelRead(data)
            }
        }
    }

    private func answer(to head: HTTPRequest) -> Pending? {
        if challenge.matches(head) { return .challenge }
        return bootstraps?.answer(to: head).map(Pending.bootstrap)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), outstanding > 0 { outstanding -= 1 }
        context.write(data, promise: promise)
    }
}

/// The challenge response and what to do each time it is sent, shared by every connection.
struct PreparedChallenge: Sendable {
    let headers: HTTPFields
    /// Called with the request's method and arrival time (`monotonicNanoseconds`) once the answer is written.
    let answered: @Sendable (HTTPRequest.Method, Int64) -> Void
    /// The whole response head, rebuilt once a second for its `Date`, so answering copies nothing.
    private let cached = NIOLockedValueBox<(second: Int, response: HTTPResponse)>((-1, HTTPResponse(status: .unauthorized)))

    init(headers: HTTPFields, answered: @escaping @Sendable (HTTPRequest.Method, Int64) -> Void) {
        var headers = headers
        headers[.contentLength] = "0"
        self.headers = headers
        self.answered = answered
    }

    func matches(_ head: HTTPRequest) -> Bool {
        guard head.method == .get || head.method == .post, head.path == "/wopibootstrapper" else { return false }
        // One pass, no values read: HTTPFields' subscript scans the fields and joins the values it finds each time.
        return !head.headerFields.contains { field in
            field.name == .authorization || field.name == .connection || field.name == .expect
        }
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    func response() -> HTTPResponse {
        let second = HTTPDate.currentSecond()
        return cached.withLockedValue { cached in
            if cached.second != second {
                var fields = headers
                fields[.date] = HTTPDate.format(second)
                cached = (second, HTTPResponse(status: .unauthorized, headerFields: fields))
            }
            return cached.response
        }
    }
}

/// The metrics and request log line of a bootstrap answered before the router (by `BootstrapChannelHandler` or
/// `BootstrapFastPath`): what `RequestMetricsMiddleware` and `RequestLogMiddleware` give a route's answer, plus the
/// bootstrap's own outcome counter, so `/metrics` and the log cannot tell which path answered.
struct BootstrapAnswerRecorder: Sendable {
    enum Outcome { case challenge, bootstrap }

    let metrics: BridgeMetrics
    /// nil when request logs are off.
    let logger: Logger?

    /// `arrival` is `PreparedChallenge.monotonicNanoseconds()` when the request's head was read. In the pipeline the
    /// request id is made here; a route's answer passes its context's logger, which carries the id already.
    func answered(_ outcome: Outcome, method: HTTPRequest.Method, arrival: Int64, requestID: RequestID?, logger: Logger? = nil) {
        let nanoseconds = PreparedChallenge.monotonicNanoseconds() - arrival
        let status: Int
        switch outcome {
        case .challenge:
            metrics.challenges.increment()
            status = 401
        case .bootstrap:
            metrics.bootstraps.increment()
            status = 200
        }
        let handles = metrics.requestHandles.handles(method: method.rawValue, route: "/wopibootstrapper", status: status)
        handles.requests.increment()
        handles.duration.recordNanoseconds(nanoseconds)
        guard let logger = logger ?? self.logger, self.logger != nil else { return }
        // Values stay unformatted (the duration, the request id) until LogLineWriter's thread prints them.
        var metadata: Logger.Metadata = [
            "method": .string(method.rawValue), "path": "/wopibootstrapper", "status": .string(status == 401 ? "401" : "200"),
            "duration_ms": .stringConvertible(LogDuration(nanoseconds: nanoseconds)),
        ]
        if let requestID { metadata["hb.request.id"] = .stringConvertible(requestID) }
        logger.info("request", metadata: metadata)
    }
}

/// The `Date` header value (RFC 9110 §5.6.7 IMF-fixdate).
enum HTTPDate {
    static func currentSecond() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }

    static func format(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

/// The `Date` value of the current second, formatted once per second and shared.
final class CurrentHTTPDate: Sendable {
    private let cached = NIOLockedValueBox<(second: Int, value: String)>((-1, ""))

    var value: String {
        let second = HTTPDate.currentSecond()
        return cached.withLockedValue { cached in
            if cached.second != second { cached = (second, HTTPDate.format(second)) }
            return cached.value
        }
    }
}
