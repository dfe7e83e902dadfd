import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers bytes that NIO's HTTP/1.1 parser refuses before they make a request (a garbage request
/// line, an unknown method, a head over ``HTTPLimits``) with the same JSON error body as every
/// other error, then closes the connection. Without it Hummingbird answers them with an empty 400:
/// the parser fails before there is a request to route, so no middleware sees them.
///
/// A parser error inside a request the server is already handling (a malformed chunk size in its
/// body) goes on to the route reading the body, which answers it through ``ErrorMiddleware``; one
/// that arrives while an earlier response is still pending is left to Hummingbird too, so two
/// responses are never interleaved.
final class MalformedRequestResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head has arrived and whose response has not been written yet.
    private var unanswered = 0
    /// Between a request's head and the end of its body.
    private var readingRequest = false
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: unanswered += 1; readingRequest = true
        case .body: break
        case .end: readingRequest = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered -= 1 }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, unanswered == 0, !readingRequest, !answered else {
            context.fireErrorCaught(error)
            return
        }
        answered = true
        let apiError = APIError(parserError: parserError)
        let body = JSONResponse.body(of: apiError)
        var fields = apiError.headers
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.count)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: apiError.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        GracefulClose.after(written.futureResult, context)
    }
}
