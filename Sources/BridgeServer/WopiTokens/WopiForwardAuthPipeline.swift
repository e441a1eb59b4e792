import BridgeHTTP
import Foundation
import HTTPTypes
import Logging
import NIOCore
// Hummingbird's request id, so the pipeline's ids come from the same sequence and read like the router's.
import struct Hummingbird.RequestID

/// Answers a forward-auth check inside the NIO pipeline (`PipelineAnswerHandler`) when the route passed this very
/// check a moment ago and the pass still holds (`WopiForwardAuthEndpoint.rememberedAnswer`): nginx `auth_request` and
/// Traefik ForwardAuth ask once per WOPI call, with one token for a document's burst of calls. The answer is the
/// route's, byte for byte, and is counted and logged as the router's middleware would (`WopiForwardAuthParityTests`).
/// Only `GET`/`POST /wopi/auth` without a query (Envoy's `/wopi/auth/…` goes to the route), and only heads that need
/// nothing but the check: anything else, refusals included, goes to the route.
final class WopiForwardAuthPipeline: PipelineAnswerer {
    let endpoint: WopiForwardAuthEndpoint
    let securityFields: [HTTPField]
    let metrics: BridgeMetrics
    /// Where the log line goes; nil when request logs are off.
    let logger: Logger?
    let maxHeaderValueBytes: Int
    let date = CurrentHTTPDate()

    init(endpoint: WopiForwardAuthEndpoint, securityFields: [HTTPField], metrics: BridgeMetrics, logger: Logger?) {
        self.endpoint = endpoint
        self.securityFields = securityFields
        self.metrics = metrics
        self.logger = logger
        self.maxHeaderValueBytes = endpoint.maxHeaderBytes
    }

    func response(to head: HTTPRequest) -> PipelineResponse? {
        guard head.method == .get || head.method == .post, head.path == WopiForwardAuthEndpoint.path,
            needsOnlyTheCheck(head.headerFields)
        else { return nil }
        let request = ForwardedWopiRequest(headers: head.headerFields, path: WopiForwardAuthEndpoint.path, method: head.method.rawValue)
        guard let answer = endpoint.rememberedAnswer(to: request, at: endpoint.now()) else { return nil }
        let requestID = RequestID()
        // The route's order: its own fields, the hardening middleware's, the request id, then the server's.
        var headers = answer.headerFields
        SecurityHeaders.apply(securityFields, to: &headers)
        headers[.xRequestID] = requestID.description
        headers[.contentLength] = "0"
        headers[.date] = date.value
        return PipelineResponse(head: HTTPResponse(status: .ok, headerFields: headers), body: nil, requestID: requestID)
    }

    /// No `Connection` or `Expect` (Hummingbird's connection handling must see those, RFC 9112 §9.6, RFC 9110 §10.1.1),
    /// no body, no value over `limits.maxHeaderValueBytes` (`RequestLimitsMiddleware`'s 431).
    private func needsOnlyTheCheck(_ fields: HTTPFields) -> Bool {
        for field in fields {
            if field.value.utf8.count > maxHeaderValueBytes { return false }
            switch field.name {
            case .connection, .expect, .transferEncoding: return false
            case .contentLength where field.value != "0": return false
            default: continue
            }
        }
        return true
    }

    /// What `RequestMetricsMiddleware` and `RequestLogMiddleware` record for the route's 200, through the same two
    /// functions.
    func answered(_ response: PipelineResponse, method: HTTPRequest.Method, arrival: Int64) {
        let nanoseconds = BootstrapAnswers.monotonicNanoseconds() - arrival
        let status = Int(response.head.status.code)
        metrics.countRequest(method: method.rawValue, route: WopiForwardAuthEndpoint.path, status: status, nanoseconds: nanoseconds)
        guard let logger else { return }
        RequestLogLine.write(
            method: method.rawValue, path: WopiForwardAuthEndpoint.path, status: status,
            duration: LogDuration(nanoseconds: nanoseconds), requestID: response.requestID, logger: logger)
    }
}
