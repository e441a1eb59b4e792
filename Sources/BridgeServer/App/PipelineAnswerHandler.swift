import HTTPTypes
import NIOCore
import NIOHTTPTypes
import struct Hummingbird.RequestID

/// A whole answer the NIO pipeline writes itself: its head (every field the route's answer would carry, the
/// middleware's included) and body, and the request id that head carries, for the log line.
struct PipelineResponse {
    var head: HTTPResponse
    var body: ByteBuffer?
    var requestID: RequestID?
}

/// One kind of request `PipelineAnswerHandler` may answer without the application: it says whether it can answer a
/// head with nothing awaited, and records an answer once written exactly as the router's middleware records the
/// route's (`BridgeMetrics.countRequest`, `RequestLogLine.write`), so `/metrics` and the log cannot tell them apart.
protocol PipelineAnswerer: AnyObject, Sendable {
    /// The answer to `head`, or nil: the application answers.
    func response(to head: HTTPRequest) -> PipelineResponse?
    /// `arrival` is `BootstrapAnswers.monotonicNanoseconds()` when the head was read.
    func answered(_ response: PipelineResponse, method: HTTPRequest.Method, arrival: Int64)
}

/// Answers inside the NIO pipeline, on the event loop, what its answerers can answer with nothing awaited: the
/// bootstrapper's challenge and remembered bootstraps (`BootstrapAnswers`), and remembered forward-auth passes
/// (`WopiForwardAuthPipeline`). No Swift task, no router, no middleware: profiling showed a Hummingbird route spending
/// most of its ~32 µs of CPU per request in the async machinery (task switches, retain/release, generic metadata),
/// against nginx's ~4 µs.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler`, so idle timeouts and graceful shutdown see these
/// requests like any other. Anything else goes to the application, and so does any request that arrives while an
/// earlier one on the same connection is still being answered there, so responses never overtake each other on a
/// pipelined connection.
final class PipelineAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Asked in order; the first with an answer writes it.
    let answerers: [any PipelineAnswerer]
    /// Requests handed to the application whose response has not ended yet.
    private var outstanding = 0
    /// What this handler will write once the request it answers has ended (its body is dropped), and who records it.
    private var pending: (response: PipelineResponse, answerer: any PipelineAnswerer)?
    /// The method and arrival (monotonic nanoseconds) of the request being answered, for its log line.
    private var method = HTTPRequest.Method.get
    private var arrival: Int64 = 0

    init(answerers: [any PipelineAnswerer]) {
        self.answerers = answerers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if outstanding == 0, let answer = answer(to: head) {
                pending = answer
                method = head.method
                arrival = BootstrapAnswers.monotonicNanoseconds()
            } else {
                outstanding += 1
                context.fireChannelRead(data)
            }
        case .body:
            if pending == nil { context.fireChannelRead(data) }
        case .end:
            guard let (response, answerer) = pending else {
                context.fireChannelRead(data)
                return
            }
            pending = nil
            context.write(wrapOutboundOut(.head(response.head)), promise: nil)
            if let body = response.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            answerer.answered(response, method: method, arrival: arrival)
        }
    }

    private func answer(to head: HTTPRequest) -> (PipelineResponse, any PipelineAnswerer)? {
        for answerer in answerers {
            if let response = answerer.response(to: head) { return (response, answerer) }
        }
        return nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), outstanding > 0 { outstanding -= 1 }
        context.write(data, promise: promise)
    }
}
