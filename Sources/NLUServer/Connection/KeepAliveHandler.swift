import NIOCore
import NIOHTTP1

/// Closes a connection after the response to a request whose client did not ask to keep it: an
/// HTTP/1.0 request without `Connection: keep-alive`, or any request with `Connection: close` (in
/// any case, among other tokens). The response then says `Connection: close`, and an HTTP/1.0
/// client that did ask to keep the connection is told `Connection: keep-alive`, as HTTP/1.0 clients
/// (ApacheBench's `-k`) expect before they send a second request.
///
/// Hummingbird converts requests to Swift HTTP Types, which have no HTTP version, and keeps a
/// connection open unless its request's `Connection` is exactly `close`: an HTTP/1.0 client that
/// expects the server to close after its response held the connection (and a file descriptor) for
/// the whole idle timeout. So this handler sits before that conversion (``HTTP1ServerChannel``),
/// where NIO's request head still knows its version, and rewrites `Connection` to exactly `close`
/// for every request that is not kept alive, which also makes Hummingbird stop reading after it.
///
/// A response that already says `Connection: close` (a 413, a 408, a malformed request) is left to
/// the handler that said so (``RequestDeadlineHandler``, ``MalformedRequestResponder``).
final class KeepAliveHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What a request's client asked of the connection.
    private enum Persistence {
        /// HTTP/1.1's default: the connection stays open, nothing to say.
        case kept
        /// HTTP/1.0 with `Connection: keep-alive`: stays open, and the response says so.
        case keptByRequest
        /// Closed after the response, which says so.
        case closed
    }

    /// The requests whose response has not begun, oldest first (a client may send several at once).
    private var pending = CircularBuffer<Persistence>()
    /// The response being written ends the connection.
    private var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        // NIO's isKeepAlive lets an HTTP/1.0 `keep-alive` token win over a `close` beside it; close wins (RFC 9112 9.3).
        let asksToClose = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
        guard head.isKeepAlive && !asksToClose else {
            pending.append(.closed)
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        pending.append(head.version == .http1_0 ? .keptByRequest : .kept)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.code >= 200:
            // No request pending: an answer to bytes that never made a request, already closing.
            let persistence = pending.popFirst() ?? .kept
            closeAfterResponse = false
            if !response.headers.contains(name: "connection") {
                switch persistence {
                case .kept: break
                case .keptByRequest: response.headers.add(name: "connection", value: "keep-alive")
                case .closed:
                    response.headers.add(name: "connection", value: "close")
                    closeAfterResponse = true
                }
            }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where closeAfterResponse:
            closeAfterResponse = false
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(data, promise: written)
            written.futureResult.cascade(to: promise)
            GracefulClose.after(written.futureResult, context)
        default:
            // Bodies, informational (1xx) heads and the ends of kept connections' responses.
            context.write(data, promise: promise)
        }
    }
}
