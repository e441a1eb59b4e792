import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `GET`/`POST /wopibootstrapper` inside the NIO pipeline, on the event loop, when the answer needs nothing
/// awaited (`BootstrapAnswers.pipelineAnswer`): the unauthenticated request with the prepared challenge, and an
/// authenticated one whose token and store status were seen a moment ago (Office bootstraps again and again with one
/// token). No Swift task, no router, no middleware: profiling showed a Hummingbird route spending most of its ~32 µs
/// of CPU per request in the async machinery (task switches, retain/release, generic metadata), against nginx's ~4 µs.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler`, so idle timeouts and graceful shutdown see these
/// requests like any other. Anything else goes to the application, and so does any request that arrives while an
/// earlier one on the same connection is still being answered there, so responses never overtake each other on a
/// pipelined connection.
final class BootstrapChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let answers: BootstrapAnswers
    /// Requests handed to the application whose response has not ended yet.
    private var outstanding = 0
    /// What this handler will write once the request it answers has ended (its body is dropped).
    private var pending: BootstrapAnswers.PipelineAnswer?
    /// The method and arrival (monotonic nanoseconds) of the request being answered, for its log line.
    private var method = HTTPRequest.Method.get
    private var arrival: Int64 = 0

    init(answers: BootstrapAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if outstanding == 0, let answer = answers.pipelineAnswer(to: head) {
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
            switch pending {
            case .challenge:
                pending = nil
                context.write(wrapOutboundOut(.head(answers.challengeResponseHead())), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                answers.answeredInPipeline(.challenge, method: method, arrival: arrival)
            case .bootstrap(let head, let body, let requestID):
                pending = nil
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.write(wrapOutboundOut(.body(body)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                answers.answeredInPipeline(.bootstrap, method: method, arrival: arrival, requestID: requestID)
            case nil:
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), outstanding > 0 { outstanding -= 1 }
        context.write(data, promise: promise)
    }
}
