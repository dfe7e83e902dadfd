import Hummingbird
import Logging

/// One structured log line per request (method, path without the query — it may hold the token —,
/// status, milliseconds, request id) and the request metrics; the outermost middleware, so it sees
/// the final status of error responses too.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(request, context)
        let elapsed = clock.now - start
        // Known routes and methods, not the raw ones: what clients send must not grow the metric set without bound.
        let labels = RouteTable.metricLabels(method: request.method, path: request.uri.path)
        metrics.recordRequest(route: labels.route, method: labels.method, status: response.status.code, duration: elapsed)
        if context.logger.logLevel <= .info {
            let (seconds, attoseconds) = elapsed.components
            let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            context.logger.info("request", metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "status": "\(response.status.code)",
                "ms": "\((milliseconds * 1000).rounded() / 1000)",
            ])
        }
        return response
    }
}
