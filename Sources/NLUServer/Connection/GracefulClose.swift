import NIOCore

/// Closing a connection after its last response without losing that response.
enum GracefulClose {
    /// Half-closes once `written` completes (so the client reads the response rather than a reset
    /// caused by bytes it sent that were never read), then closes fully a moment later whatever
    /// the client still sends.
    static func after(_ written: EventLoopFuture<Void>, _ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in
            let context = loopBound.value
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
                context.close(promise: nil)
            }
        }
    }
}
