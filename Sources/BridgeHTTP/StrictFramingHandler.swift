import NIOCore
import NIOHTTP1

/// Refuses requests whose framing is faulty (`RequestFraming`) or that NIO's parser could not read, with the status
/// RFC 9112 asks for and `Connection: close`, then closes: right after the HTTP/1.1 decoder, so no handler after it
/// (the prepared challenge, the router) ever sees such a request. Takes the place of NIO's
/// `HTTPServerProtocolErrorHandler`, which answers 400 to everything and checks nothing on a parsed head.
///
/// On a pipelined connection the refusal waits until the responses to earlier requests have ended, so it never
/// cuts into one of them.
package final class StrictFramingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias InboundOut = HTTPServerRequestPart
    package typealias OutboundIn = HTTPServerResponsePart
    package typealias OutboundOut = HTTPServerResponsePart

    /// Requests passed on whose response has not ended yet.
    private var unanswered = 0
    /// Set once a request is refused: everything read after it is dropped.
    private var refusal: RequestFraming.Violation?
    private var refusalSent = false

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusal == nil else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let violation = RequestFraming.violation(in: head) { return refuse(violation, context: context) }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        if refusal == nil { refuse(RequestFraming.violation(for: error), context: context) }
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        unanswered = max(0, unanswered - 1)
        context.write(data, promise: promise)
        if unanswered == 0, refusal != nil { sendRefusal(context: context) }
    }

    private func refuse(_ violation: RequestFraming.Violation, context: ChannelHandlerContext) {
        refusal = violation
        if unanswered == 0 { sendRefusal(context: context) }
    }

    private func sendRefusal(context: ChannelHandlerContext) {
        guard let refusal, !refusalSent else { return }
        refusalSent = true
        let body = context.channel.allocator.buffer(string: refusal.message + "\n")
        let headers = HTTPHeaders([
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
            ("Connection", "close"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
