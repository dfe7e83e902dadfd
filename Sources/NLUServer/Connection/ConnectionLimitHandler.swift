import NIOCore
import NIOHTTPTypes

/// Tells the server's ``ConnectionLimiter`` when its connection opens, closes, starts a request and
/// has answered everything it received: the last is when the connection becomes idle, and may be
/// closed to make room for a new one. It becomes idle only once the last response is written out, so
/// closing it then cannot cut that response short.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private var id: Int?
    /// Requests whose head has arrived and whose response has not been written yet.
    private var unanswered = 0
    /// Between a request's head and the end of its body.
    private var readingRequest = false

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        unregister()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        unregister()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            readingRequest = true
            if let id { limiter.busy(id) }
        case .body:
            break
        case .end:
            readingRequest = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        unanswered -= 1
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascade(to: promise)
        context.write(data, promise: written)
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            // Another request may have begun while this response was being written.
            let handler = loopBound.value
            if let id = handler.id, handler.unanswered == 0, !handler.readingRequest { handler.limiter.idle(id) }
        }
    }

    private func register(_ context: ChannelHandlerContext) {
        guard id == nil else { return }
        id = limiter.opened(context.channel)
    }

    private func unregister() {
        if let id { limiter.closed(id) }
        id = nil
    }
}
