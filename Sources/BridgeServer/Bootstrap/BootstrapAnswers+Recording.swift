import BridgeHTTP
import Foundation
import HTTPTypes
import Logging
import struct Hummingbird.RequestID

/// The metrics and request log line of a bootstrap answer. An answer written before the router (by
/// `PipelineAnswerHandler` or `BootstrapFastPath`) gets what `RequestMetricsMiddleware` and `RequestLogMiddleware`
/// give a route's answer, through the same two functions (`BridgeMetrics.countRequest`, `RequestLogLine.write`), so
/// `/metrics` and the log cannot tell which path answered; every answer also counts its outcome.
extension BootstrapAnswers {
    /// An answer the NIO pipeline wrote; `requestID` is the one its response carries, if any (a new one otherwise).
    /// `arrival` is `monotonicNanoseconds()` when the request's head was read.
    func answeredInPipeline(_ kind: BootstrapOutcome.Kind, method: HTTPRequest.Method, arrival: Int64, requestID: RequestID? = nil) {
        answeredBeforeRouter(kind, method: method, arrival: arrival, requestID: requestID ?? RequestID(), logger: logger)
    }

    /// The challenge `BootstrapFastPath` wrote; `logger` is its request context's, which carries the router's request id.
    func challengedOnFastPath(method: HTTPRequest.Method, arrival: Int64, logger: Logger) {
        answeredBeforeRouter(.challenge, method: method, arrival: arrival, requestID: nil, logger: self.logger == nil ? nil : logger)
    }

    private func answeredBeforeRouter(
        _ kind: BootstrapOutcome.Kind, method: HTTPRequest.Method, arrival: Int64, requestID: RequestID?, logger: Logger?
    ) {
        let nanoseconds = Self.monotonicNanoseconds() - arrival
        metrics.count(kind)
        metrics.countRequest(method: method.rawValue, route: Self.path, status: kind.status, nanoseconds: nanoseconds)
        guard let logger else { return }
        RequestLogLine.write(
            method: method.rawValue, path: Self.path, status: kind.status, duration: LogDuration(nanoseconds: nanoseconds),
            requestID: requestID, logger: logger)
    }

    /// The route's answer: its outcome only; the router's middleware counts and logs the request.
    func answeredByRoute(_ outcome: BootstrapOutcome) {
        metrics.count(outcome.kind)
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// The bootstrapper's answers for `PipelineAnswerHandler`: the challenge and remembered bootstraps (`pipelineAnswer`).
extension BootstrapAnswers: PipelineAnswerer {
    func response(to head: HTTPRequest) -> PipelineResponse? {
        switch pipelineAnswer(to: head) {
        case .challenge: PipelineResponse(head: challengeResponseHead(), body: nil, requestID: nil)
        case .bootstrap(let head, let body, let requestID): PipelineResponse(head: head, body: body, requestID: requestID)
        case nil: nil
        }
    }

    func answered(_ response: PipelineResponse, method: HTTPRequest.Method, arrival: Int64) {
        answeredInPipeline(response.head.status == .ok ? .bootstrap : .challenge, method: method, arrival: arrival, requestID: response.requestID)
    }
}
