import NIOCore
import NIOHTTP1

/// The client's side of a request failed before a route could read it whole: the HTTP parser
/// refused its bytes, or it did not arrive within `--timeout`. Each is the client's fault, so it
/// becomes a 4xx ``APIError`` (never a 500 that would trip server-error alerts), and the
/// connection is closed after the answer: what follows on it cannot be trusted.
extension APIError {
    /// The answer to bytes NIO's HTTP/1.1 parser refused (`HTTPParserError`).
    init(parserError: HTTPParserError) {
        switch parserError {
        case .invalidEOFState:
            // The client closed its side (or the connection broke) inside the body.
            self.init(status: .badRequest, error: "bad_request",
                      message: "the connection ended before the request body did (fewer bytes than its Content-Length, or an unfinished chunked body)")
        case .headerOverflow:
            self.init(status: .requestHeaderFieldsTooLarge, error: "headers_too_large",
                      message: "the request head is larger than the limits of \(HTTPLimits.headerBytes) bytes of header fields and \(HTTPLimits.headerFields) fields")
        case .invalidChunkSize:
            self.init(status: .badRequest, error: "bad_request",
                      message: "the chunked request body is malformed: a chunk size is not a hexadecimal number of bytes")
        case .invalidContentLength, .unexpectedContentLength:
            self.init(status: .badRequest, error: "bad_request", message: "the Content-Length header is not a valid length")
        case .invalidMethod:
            self.init(status: .badRequest, error: "bad_request", message: "the request line is malformed: unknown HTTP method")
        default:
            // NIO's own short phrases ("invalid HTTP version", "invalid character in header") say what broke.
            self.init(status: .badRequest, error: "bad_request", message: "the request is not valid HTTP/1.1: \(parserError.debugDescription)")
        }
        headers[.connection] = "close"
    }

    /// The answer when a request's body did not arrive within `--timeout`.
    static func requestTimedOut(_ error: RequestTimedOutError) -> APIError {
        APIError(status: .requestTimeout, error: "request_timeout",
                 message: "the request did not arrive whole within the server's --timeout of \(error.seconds) seconds",
                 headers: [.connection: "close"])
    }
}

/// The connection's deadline passed while a route was still waiting for the request's body
/// (``RequestDeadlineHandler`` sends it into the body stream so the route answers 408).
struct RequestTimedOutError: Error, CustomStringConvertible {
    /// The `--timeout`, as the user wrote it (`30`, `0.5`).
    var seconds: String

    init(timeout: TimeAmount) {
        seconds = TimeAmount.secondsText(timeout)
    }

    var description: String { "the request did not arrive within \(seconds) seconds" }
}
