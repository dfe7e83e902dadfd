import HTTPTypes
import NLUCore
import NLUInputOutput

/// An error the server answers with: an HTTP status and the JSON body
/// `{"error": "<kind>", "message": "<what was wrong and what was expected>"}`.
///
/// `error` is a stable machine-readable kind (`bad_request`, `not_found`, ...); `message` names the
/// field, the route or the limit involved.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: HTTPResponse.Status
    /// The stable kind of error.
    public var error: String
    /// What was wrong, for a person.
    public var message: String
    /// Extra response headers (`Allow` on 405, `WWW-Authenticate` on 401, `Connection: close` on 413).
    public var headers: HTTPFields = [:]

    public var description: String { "\(status.code) \(error): \(message)" }

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, error: "bad_request", message: message) }
    static func unprocessable(_ message: String) -> APIError {
        APIError(status: .unprocessableContent, error: "unprocessable", message: message)
    }
    static func notFound(_ path: String) -> APIError {
        APIError(status: .notFound, error: "not_found", message: "no route \(EchoedValue.prefix(path))")
    }
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> APIError {
        APIError(status: .methodNotAllowed, error: "method_not_allowed",
                 message: "\(EchoedValue.prefix(path)) does not accept \(EchoedValue.prefix(method)); it accepts \(allowed.joined(separator: ", "))",
                 headers: [.allow: allowed.joined(separator: ", ")])
    }
    static func modelNotLoaded(_ task: String, option: String) -> APIError {
        APIError(status: .notFound, error: "model_not_loaded",
                 message: "no \(task) model is served: start the server with \(option) MODEL")
    }
    /// 413 naming the body's size and the limit, as every size limit's answer does: `declared` is the
    /// `Content-Length`; without one (a chunked body), the size known is only that it passed the limit.
    static func bodyTooLarge(limit: Int, declared: Int?) -> APIError {
        let size = declared.map { "\($0) bytes" } ?? "more than \(limit) bytes, sent in chunks,"
        // The connection is closed after the answer, so the rest of the body is never read.
        return APIError(status: .contentTooLarge, error: "body_too_large",
                        message: "the request body of \(size) is over this server's limit of \(limit) bytes (--max-body)",
                        headers: [.connection: "close"])
    }
    static let unauthorized = APIError(
        status: .unauthorized, error: "unauthorized",
        message: "this server needs a token: send 'Authorization: Bearer TOKEN' or ?token=TOKEN",
        headers: [.wwwAuthenticate: "Bearer"])
    static let busy = APIError(
        status: .serviceUnavailable, error: "busy",
        message: "all inference workers are busy and the queue is full; retry shortly",
        headers: [HTTPField.Name("Retry-After")!: "1"])
}
