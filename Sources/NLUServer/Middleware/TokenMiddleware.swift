import Hummingbird

/// With a token configured, lets a request through only with `Authorization: Bearer TOKEN` or
/// Rasa's `?token=TOKEN`; every other request, to a known route or not, gets the same 401, so an
/// unauthenticated client learns nothing about what is served.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if RouteTable.isPublic(method: request.method, path: request.uri.path) || isAuthorized(request) {
            return try await next(request, context)
        }
        throw APIError.unauthorized
    }

    private func isAuthorized(_ request: Request) -> Bool {
        if let header = request.headers[.authorization], let credentials = AuthorizationHeader.bearerCredentials(header),
           TokenComparison.constantTimeEqual(credentials, token) {
            return true
        }
        if let query = request.uri.queryParameters.get("token"), TokenComparison.constantTimeEqual(query, token) {
            return true
        }
        return false
    }
}

enum AuthorizationHeader {
    /// The credentials of an `Authorization` value in the Bearer scheme: the scheme's name in any
    /// case (RFC 9110 §11.1: `bearer`, `BEARER` are the same scheme), then one or more spaces.
    static func bearerCredentials(_ header: String) -> String? {
        guard let space = header.firstIndex(of: " "), header[..<space].lowercased() == "bearer" else { return nil }
        return String(header[space...].drop { $0 == " " })
    }
}

enum TokenComparison {
    /// Compares without returning early on the first difference, so response times do not tell an
    /// attacker how much of a guessed token was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
