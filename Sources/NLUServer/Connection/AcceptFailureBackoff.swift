import Foundation
import NIOCore

/// Stops the listening socket spinning when `accept` fails for want of descriptors or memory
/// (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`): it pauses accepting for ``pause``, and closes the
/// connection idle the longest (``ConnectionLimiter/closeOldestIdle()``) so that the client waiting
/// in the listen queue gets its descriptor.
///
/// ``ConnectionLimiter`` keeps the server's own connections below the open-files limit, but the
/// descriptors can still run out: the limit lowered while the server runs (`prlimit`), the system's
/// file table full (`ENFILE`), other files of the process. NIO's listening channel then retries at
/// once: the failed `accept` leaves the connection queued, so the socket stays readable, and the
/// read it had asked for stays pending, so NIO's own `AcceptBackoffHandler` is never asked to hold a
/// read back. One core spun at 70-90 % with no request served (`prlimit --nofile=30` on a running
/// server, 100 idle clients). Turning `autoRead` off takes the socket out of the event loop's
/// interest until the pause is over; turning it on asks for a read again.
final class AcceptFailureBackoff: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel

    /// How long accepting pauses after such a failure: long enough that a full process costs no CPU,
    /// short enough that a descriptor freed meanwhile is used soon.
    static let pause = TimeAmount.milliseconds(100)

    private let limiter: ConnectionLimiter
    private var resumption: Scheduled<Void>?

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    /// Whether `error` is an `accept` failure that waiting (or closing a connection) can cure.
    static func isShortage(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        defer { context.fireErrorCaught(error) }
        guard Self.isShortage(error), resumption == nil, let options = context.channel.syncOptions else { return }
        do {
            try options.setOption(ChannelOptions.autoRead, value: false)
        } catch {
            return
        }
        limiter.closeOldestIdle()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        resumption = context.eventLoop.scheduleTask(in: Self.pause) {
            let (handler, context) = loopBound.value
            handler.resumption = nil
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        resumption?.cancel()
        resumption = nil
        context.fireChannelInactive()
    }
}
