import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes
import SignInProtocol

/// The authenticated bootstraps `BootstrapChannelHandler` answers itself: those whose access token and store status
/// were kept a moment ago (`BootstrapService.rememberedBootstrap`). The answer is the route's, byte for byte but for
/// the tokens, request id and date: the same JSON, the same response headers, the same log line and metrics. Any
/// request the route would answer differently (a header over the size limit, a body, a refusal) is left to it.
/// A class: every connection's handler holds it, and as a struct (a service and configuration of many strings) each
/// use copied it, 6% of the server's CPU in retains, releases and value-witness copies (`perf record`).
final class RememberedBootstraps: Sendable {
    struct Answer {
        let head: HTTPResponse
        let body: ByteBuffer
        let requestID: RequestID
    }

    let service: BootstrapService
    let securityFields: [HTTPField]
    let recorder: BootstrapAnswerRecorder
    let date = CurrentHTTPDate()
    let maxHeaderValueBytes: Int

    init(service: BootstrapService, securityFields: [HTTPField], recorder: BootstrapAnswerRecorder) {
        self.service = service
        self.securityFields = securityFields
        self.recorder = recorder
        self.maxHeaderValueBytes = service.configuration.limits.maxHeaderValueBytes
    }

    func answer(to head: HTTPRequest) -> Answer? {
        guard head.method == .get || head.method == .post, head.path == "/wopibootstrapper" else { return nil }
        var request = BootstrapRequest(isPost: head.method == .post)
        // One pass over the fields rather than a lookup (a scan) per name.
        for field in head.headerFields {
            guard field.value.utf8.count <= maxHeaderValueBytes else { return nil }
            // A name given twice is the route's to answer (it reads the values joined, as HTTPFields does).
            switch field.name {
            case .authorization where request.authorization == nil: request.authorization = field.value
            case .wopiEcosystemOperation where request.operation == nil:
                request.operation = EcosystemOperation(headerValue: field.value)
            case .wopiSrc where request.wopiSrc == nil: request.wopiSrc = field.value
            case .wopiSessionContext where request.sessionContext == nil: request.sessionContext = field.value
            case .authorization, .wopiEcosystemOperation, .wopiSrc, .wopiSessionContext: return nil
            case .contentLength where field.value == "0": break
            case .connection, .expect, .transferEncoding, .contentLength: return nil
            default: break
            }
        }
        guard request.authorization != nil else { return nil }
        guard let response = service.rememberedBootstrap(to: request, at: service.now()) else { return nil }
        let body = JSONBody.bytes(response)
        let requestID = RequestID()
        // The route's order: its own fields, the hardening middleware's, the request id, then the date.
        var headers: HTTPFields = [.contentType: "application/json", .contentLength: String(body.count)]
        SecurityHeaders.apply(securityFields, to: &headers)
        headers[.xRequestID] = requestID.description
        headers[.date] = date.value
        return Answer(head: HTTPResponse(status: .ok, headerFields: headers), body: ByteBuffer(bytes: body), requestID: requestID)
    }

    /// Counts and logs an answer once it is written, as `RequestMetricsMiddleware` and `RequestLogMiddleware` do.
    func answered(_ answer: Answer, method: HTTPRequest.Method, arrival: Int64) {
        recorder.answered(.bootstrap, method: method, arrival: arrival, requestID: answer.requestID)
    }
}
