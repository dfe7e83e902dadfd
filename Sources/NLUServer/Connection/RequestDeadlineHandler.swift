import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: a request's head and body must arrive within
/// `timeout` of the connection opening or of the previous response (so dribbling a header a byte at
/// a time — slowloris — or a body a chunk at a time does not hold a connection forever), and an
/// idle kept-alive connection is closed after the same time. While a request is being answered
/// there is no deadline: the model's time is the server's, not the client's.
///
/// When the deadline passes inside a request whose head has arrived, the route waiting for its
/// body is told (``RequestTimedOutError`` in the body stream) and answers 408, a client error, with
/// `Connection: close`; the connection is closed a moment later whether or not the answer is out.
/// Elsewhere (an unfinished head, an idle connection) it is closed at once: there is no request to
/// answer.
///
/// It also ends connections whose response says `Connection: close` (413 on a too-large body): the
/// answer is written, the output side closed, and the rest of the body is never read into memory.
///
/// When the server stops (SIGTERM: Hummingbird sends `ChannelShouldQuiesceEvent`), a connection
/// that is idle or has only part of a request head is closed by Hummingbird at once; one whose
/// request is being answered is closed after the answer. What can still hold the process is bounded
/// here by the grace period: a request whose body is still arriving gets until the grace period
/// ends (or its own deadline, if sooner) and is then answered 503 (``ServerStoppingError``), and a
/// connection still open when the grace period ends is closed, answered or not, so that a stalled
/// client or a long model call cannot keep a stopping server alive for `--timeout` or longer.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private let gracePeriod: TimeAmount
    private var deadline: Scheduled<Void>?
    private var graceEnd: Scheduled<Void>?
    private var readingRequest = false
    private var unanswered = 0
    private var closeAfterResponse = false
    /// The route reading the current request has been sent an error (408 or 503): it is not sent another.
    private var requestFailed = false

    init(timeout: TimeAmount, gracePeriod: TimeAmount) {
        self.timeout = timeout
        self.gracePeriod = gracePeriod
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        graceEnd?.cancel()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        graceEnd?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, graceEnd == nil {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            graceEnd = context.eventLoop.assumeIsolated().scheduleTask(in: gracePeriod) {
                let (handler, context) = loopBound.value
                handler.gracePeriodEnded(context)
            }
        }
        context.fireUserInboundEventTriggered(event)   // Hummingbird closes idle connections and marks busy ones
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            requestFailed = false
            unanswered += 1
            arm(context)   // keeps the deadline set when the connection opened or went idle
        case .body:
            break
        case .end:
            readingRequest = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            if response.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            unanswered -= 1
            if closeAfterResponse {
                let written = context.eventLoop.makePromise(of: Void.self)
                context.writeAndFlush(data, promise: written)
                written.futureResult.cascade(to: promise)
                GracefulClose.after(written.futureResult, context)
            } else {
                context.write(data, promise: promise)
                if unanswered == 0, !readingRequest { arm(context) }
            }
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.deadlinePassed(context)
        }
    }

    private func deadlinePassed(_ context: ChannelHandlerContext) {
        deadline = nil
        fail(context, with: RequestTimedOutError(timeout: timeout))
    }

    private func gracePeriodEnded(_ context: ChannelHandlerContext) {
        graceEnd = nil
        fail(context, with: ServerStoppingError(gracePeriod: gracePeriod))
    }

    /// Tells the route still reading a request that it will not arrive (it answers 408 or 503),
    /// then closes the connection a moment later, the answer out or not; with no request being
    /// read, closes it at once.
    private func fail(_ context: ChannelHandlerContext, with error: any Error) {
        guard readingRequest, unanswered > 0, !requestFailed else {
            context.close(promise: nil)
            return
        }
        requestFailed = true
        context.fireErrorCaught(error)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            context.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
