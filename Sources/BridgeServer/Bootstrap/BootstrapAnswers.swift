import BridgeHTTP
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SignInProtocol
// Hummingbird's request id, so the pipeline's ids come from the same sequence and read like the router's.
import struct Hummingbird.RequestID

/// Everything `/wopibootstrapper` answers, whichever path writes it: which requests are the bootstrapper's (one
/// reading of the head), the bytes of each answer (the prepared 401 challenge, its `invalid_token` twin, the 200 JSON
/// and the text errors), and the metrics and log line of an answer written before the router
/// (`BootstrapAnswers+Recording.swift`). `PipelineAnswerHandler` (inside the NIO pipeline), `BootstrapFastPath`
/// (before the router) and the route (`BridgeRoutes.bootstrap`) all ask it, so they cannot drift apart.
/// NIO's and HTTPTypes' values only: the channel handler works below Hummingbird.
/// A class: every connection's handler holds it, and as a struct (a service and configuration of many strings) each
/// use copied it, 6% of the server's CPU in retains, releases and value-witness copies (`perf record`).
final class BootstrapAnswers: Sendable {
    static let path = "/wopibootstrapper"

    let service: BootstrapService
    let securityFields: [HTTPField]
    /// The 401 fields of a request without a usable credential, and of one whose token was refused.
    let challengeFields: HTTPFields
    let invalidTokenFields: HTTPFields
    let metrics: BridgeMetrics
    /// Where the log line of an answer written before the router goes; nil when request logs are off.
    let logger: Logger?
    let maxHeaderValueBytes: Int
    let date = CurrentHTTPDate()
    /// The whole challenge head with its `Content-Length` and `Date`, rebuilt once a second, so answering copies nothing.
    private let challengeHead = NIOLockedValueBox<(second: Int, response: HTTPResponse)>((-1, HTTPResponse(status: .unauthorized)))

    init(service: BootstrapService, challenge: ChallengeResponse, securityFields: [HTTPField], metrics: BridgeMetrics, logger: Logger?) {
        self.service = service
        self.securityFields = securityFields
        self.challengeFields = challenge.headers
        self.invalidTokenFields = challenge.invalidTokenHeaders
        self.metrics = metrics
        self.logger = logger
        self.maxHeaderValueBytes = service.configuration.limits.maxHeaderValueBytes
    }

    // MARK: Which requests are the bootstrapper's

    /// What a bootstrap request's head says, read in one pass over its fields.
    struct Head {
        var request: BootstrapRequest
        /// `Connection` or `Expect`: Hummingbird's connection handling must see the request (keep-alive and close,
        /// RFC 9112 §9.6; `100-continue`, RFC 9110 §10.1.1).
        var needsConnectionHandling = false
        /// A query, a body, a field given twice or a value over the size limit: only the route answers these as it
        /// must (431 from the limits, the values joined as `HTTPFields` joins them).
        var needsRoute = false
    }

    /// The head's bootstrap reading, or nil when it is not a `GET` or `POST` of `/wopibootstrapper` (a query allowed).
    func read(_ head: HTTPRequest) -> Head? {
        guard head.method == .get || head.method == .post, let path = head.path else { return nil }
        let hasQuery: Bool
        if path == Self.path {
            hasQuery = false
        } else if path.utf8.starts(with: Self.path.utf8), path.utf8.dropFirst(Self.path.utf8.count).first == UInt8(ascii: "?") {
            hasQuery = true
        } else {
            return nil
        }
        var read = fields(of: head)
        if hasQuery { read.needsRoute = true }
        return read
    }

    /// The bootstrap values of a head the router already matched to the route: one pass over the fields, rather than
    /// a lookup (a scan) per name.
    func fields(of head: HTTPRequest) -> Head {
        var read = Head(request: BootstrapRequest(isPost: head.method == .post))
        var operation: String?
        for field in head.headerFields {
            if field.value.utf8.count > maxHeaderValueBytes { read.needsRoute = true }
            switch field.name {
            case .authorization: Self.take(field.value, into: &read.request.authorization, &read.needsRoute)
            case .wopiEcosystemOperation: Self.take(field.value, into: &operation, &read.needsRoute)
            case .wopiSrc: Self.take(field.value, into: &read.request.wopiSrc, &read.needsRoute)
            case .wopiSessionContext: Self.take(field.value, into: &read.request.sessionContext, &read.needsRoute)
            case .connection, .expect: read.needsConnectionHandling = true
            case .contentLength where field.value == "0": break
            case .contentLength, .transferEncoding: read.needsRoute = true
            default: break
            }
        }
        read.request.operation = operation.map { EcosystemOperation(headerValue: $0) }
        return read
    }

    /// A name given twice reads as its values joined with ", ", as `HTTPFields`' subscript reads it (RFC 9110 §5.3).
    private static func take(_ value: String, into slot: inout String?, _ needsRoute: inout Bool) {
        if slot != nil { needsRoute = true }
        slot = joined(slot, value)
    }

    private static func joined(_ earlier: String?, _ value: String) -> String {
        earlier.map { $0 + ", " + value } ?? value
    }

    // MARK: The answers

    /// What the NIO pipeline can write itself: the challenge to a request without a credential, or the bootstrap of
    /// a token and status seen a moment ago (`BootstrapService.rememberedBootstrap`). nil: the application answers.
    enum PipelineAnswer {
        case challenge
        case bootstrap(head: HTTPResponse, body: ByteBuffer, requestID: RequestID)
    }

    func pipelineAnswer(to head: HTTPRequest) -> PipelineAnswer? {
        guard let read = read(head), !read.needsConnectionHandling else { return nil }
        if read.request.authorization == nil { return .challenge }
        guard !read.needsRoute, let response = service.rememberedBootstrap(to: read.request, at: service.now()) else {
            return nil
        }
        let body = JSONBody.bytes(response)
        let requestID = RequestID()
        // The route's order: its own fields, the hardening middleware's, the request id, then the date.
        var headers: HTTPFields = [.contentType: "application/json", .contentLength: String(body.count)]
        SecurityHeaders.apply(securityFields, to: &headers)
        headers[.xRequestID] = requestID.description
        headers[.date] = date.value
        return .bootstrap(head: HTTPResponse(status: .ok, headerFields: headers), body: ByteBuffer(bytes: body), requestID: requestID)
    }

    /// A bootstrap request without an `Authorization` field: the challenge, whatever else it carries.
    func isUnauthenticated(_ head: HTTPRequest) -> Bool {
        guard let read = read(head) else { return false }
        return read.request.authorization == nil
    }

    /// The challenge head as the pipeline writes it (no body).
    func challengeResponseHead() -> HTTPResponse {
        let second = HTTPDate.currentSecond()
        return challengeHead.withLockedValue { cached in
            if cached.second != second {
                var fields = challengeFields
                fields[.contentLength] = "0"
                fields[.date] = HTTPDate.format(second)
                cached = (second, HTTPResponse(status: .unauthorized, headerFields: fields))
            }
            return cached.response
        }
    }

    /// The route's answer to an outcome: status, fields and body (the server adds `Content-Length` and `Date`, the
    /// router's outermost middleware the security fields missing here and the request id).
    struct Rendered {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: [UInt8]
    }

    func rendered(_ outcome: BootstrapOutcome) -> Rendered {
        switch outcome {
        case .challenge:
            return Rendered(status: .unauthorized, headers: challengeFields, body: [])
        case .invalidToken:
            return Rendered(status: .unauthorized, headers: invalidTokenFields, body: [])
        case .bootstrap(let body):
            return Rendered(status: .ok, headers: [.contentType: "application/json"], body: JSONBody.bytes(body))
        case .unknownWopiSource:
            return Self.text(.notFound, "unknown WopiSrc")
        case .badRequest(let message):
            return Self.text(.badRequest, message)
        case .storeUnavailable:
            var rendered = Self.text(.serviceUnavailable, "the store is unavailable, try again")
            rendered.headers[.retryAfter] = StoreOutage.retryAfterSeconds
            return rendered
        case .serverFault:
            return Self.text(.internalServerError, "the server could not answer")
        case .providerUnavailable:
            let body = #"{"error":"temporarily_unavailable","error_description":"the identity provider cannot be reached, try again"}"#
            var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
            headers[.retryAfter] = StoreOutage.retryAfterSeconds
            return Rendered(status: .serviceUnavailable, headers: headers, body: Array(body.utf8))
        }
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Rendered {
        Rendered(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Array((message + "\n").utf8))
    }
}
