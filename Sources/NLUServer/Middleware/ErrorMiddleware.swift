import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error a route or the router throws into the JSON error body: ``APIError`` as it is,
/// an unmatched path into 404 or — when the path exists for another method — 405 with `Allow`,
/// Hummingbird's own HTTP errors with their status, the client's failures while its body is read
/// (bytes the HTTP parser refused: 400; a body that did not arrive within `--timeout`: 408) with
/// theirs, a request a stopping server will not serve into 503, and anything else into a 500 that
/// does not leak the internal error (it is logged instead).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            // A 500 is the server's own failure (a model fault): the operator needs it in the log too (503 busy is load, not a fault).
            if error.status == .internalServerError { context.logger.error("server error", metadata: ["error": "\(error)"]) }
            return JSONResponse.make(error)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = RouteTable.methods(for: request.uri.path)
            if allowed.isEmpty { return JSONResponse.make(.notFound(request.uri.path)) }
            return JSONResponse.make(.methodNotAllowed(request.method.rawValue, request.uri.path, allowed: allowed))
        } catch let error as HTTPParserError {
            return JSONResponse.make(APIError(parserError: error))
        } catch let error as RequestTimedOutError {
            return JSONResponse.make(.requestTimedOut(error))
        } catch let error as ServerStoppingError {
            return JSONResponse.make(.stopping(error))
        } catch let error as HTTPError {
            return JSONResponse.make(APIError(status: error.status, error: "http_error",
                                              message: error.body ?? error.status.reasonPhrase))
        } catch {
            context.logger.error("internal error", metadata: ["error": "\(error)"])
            return JSONResponse.make(APIError(status: .internalServerError, error: "internal_error",
                                              message: "the server failed to answer this request (see its log)"))
        }
    }
}
