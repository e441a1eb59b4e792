import BridgeHTTP
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel (same pipeline as `HTTP1Channel`) with `StrictFramingHandler` right after
/// the HTTP/1.1 decoder and `PipelineAnswerHandler` (the bootstrapper's and forward auth's answers) after the
/// connection-state handler, which `HTTP1Channel`'s `additionalChannelHandlers` cannot do.
struct BootstrapHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: HTTP1Channel.Configuration
    let answerers: [any PipelineAnswerer]

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false,
                withErrorHandling: false,
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try channel.pipeline.syncOperations.addHandler(StrictFramingHandler())
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandler(
                HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout.map { .init($0) }, logger: logger))
            try channel.pipeline.syncOperations.addHandler(
                PipelineAnswerHandler(answerers: answerers))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        // The connection's requests run on its event loop without queueing at each await (EventLoopTaskExecutor).
        if #available(macOS 15.0, iOS 18.0, *) {
            await withTaskExecutorPreference(EventLoopTaskExecutor(asyncChannel.channel.eventLoop)) {
                await handleHTTP(asyncChannel: asyncChannel, logger: logger)
            }
        } else {
            await handleHTTP(asyncChannel: asyncChannel, logger: logger)
        }
    }
}
