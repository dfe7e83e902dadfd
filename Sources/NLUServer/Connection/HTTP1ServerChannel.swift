import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 connection, with ``KeepAliveHandler`` added between NIO's HTTP/1 parser and
/// the conversion to Swift HTTP Types: the one place in the pipeline where a request's HTTP version
/// (HTTP/1.0 closes by default) is still known. Everything else — the pipeline, the handlers in
/// `configuration.additionalChannelHandlers`, the request loop — is Hummingbird's own.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct HTTP1ServerChannel: ServerChildChannel {
    let http1: HTTP1Channel

    init(responder: @escaping HTTPChannelHandler.Responder, configuration: HTTP1Channel.Configuration) {
        http1 = HTTP1Channel(responder: responder, configuration: configuration)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Still on the connection's event loop, before its first byte is read.
            let pipeline = channel.pipeline.syncOperations
            let parser = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(KeepAliveHandler(), position: .after(parser))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
