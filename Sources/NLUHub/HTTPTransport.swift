import Foundation
#if canImport(FoundationNetworking)
// On Linux, URLSession lives here (on libcurl, which the toolchain's Foundation already links):
// HTTPS, proxies from the environment and HTTP/2 at no build cost, unlike an HTTP client package.
import FoundationNetworking
#endif

/// The status line and headers of an HTTP response (header names lowercased).
struct HTTPResponseHead: Sendable {
    var status: Int
    var headers: [String: String]
    /// The URL that answered (after the redirects that were followed).
    var url: URL

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The few HTTP exchanges the Hub client needs, on URLSession: a HEAD that does not follow
/// redirects to other hosts (the Hub's metadata is on the redirect itself), a small GET read into
/// memory, and a GET streamed to a callback (downloads never sit in memory).
struct HTTPTransport: Sendable {
    /// Seconds without progress (the response's head, or ``TransferWatchdog/progressUnit`` bytes) before a request fails.
    var stallTimeout: Double
    /// When every request must be over (the whole download's deadline), or nil.
    var deadline: TransferWatchdog.Deadline?

    /// HEAD `url`: only relative redirects are followed (a renamed repository), so a redirect to a
    /// CDN comes back as the answer, with the Hub's headers on it.
    func head(_ url: URL, headers: [String: String]) async throws -> HTTPResponseHead {
        try await exchange(url, method: "HEAD", headers: headers, followOtherHosts: false, onResponse: { _ in }, onData: { _ in })
    }

    /// GET `url` into memory, refusing bodies over `limit` bytes (the Hub's JSON answers are small).
    func get(_ url: URL, headers: [String: String], limit: Int) async throws -> (HTTPResponseHead, Data) {
        let body = Body()
        let head = try await exchange(url, method: "GET", headers: headers, followOtherHosts: true, onResponse: { _ in }) { chunk in
            guard body.data.count + chunk.count <= limit else {
                throw HTTPTransportError(kind: .refused, reason: "the answer is larger than \(limit) bytes")
            }
            body.data.append(chunk)
        }
        return (head, body.data)
    }

    /// GET `url`, handing the response head to `onResponse` (which may throw to stop before the
    /// body) and every piece of the body to `onData` as it arrives.
    func stream(_ url: URL, headers: [String: String],
                onResponse: @escaping (HTTPResponseHead) throws -> Void,
                onData: @escaping (Data) throws -> Void) async throws -> HTTPResponseHead {
        try await exchange(url, method: "GET", headers: headers, followOtherHosts: true, onResponse: onResponse, onData: onData)
    }

    private final class Body: @unchecked Sendable { var data = Data() }   // touched by the one delegate queue only

    private func exchange(_ url: URL, method: String, headers: [String: String], followOtherHosts: Bool,
                          onResponse: @escaping (HTTPResponseHead) throws -> Void,
                          onData: @escaping (Data) throws -> Void) async throws -> HTTPResponseHead {
        if let deadline, deadline.hasPassed { throw deadline.error }
        // URLSession's idle timeout is only a backstop: the watchdog's stall timeout, which also catches a
        // trickle, is meant to fire first and name its limit.
        let idleTimeout = stallTimeout + 30
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.urlCache = nil
        let watchdog = TransferWatchdog(stallTimeout: stallTimeout, deadline: deadline)
        let exchange = Exchange(followOtherHosts: followOtherHosts, watchdog: watchdog, onResponse: onResponse, onData: onData)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1   // the delegate's state is touched from this one queue
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: queue)
        defer {
            watchdog.stop()
            session.finishTasksAndInvalidate()   // a session keeps its delegate until invalidated
        }
        return try await withCheckedThrowingContinuation { continuation in
            exchange.continuation = continuation
            let task = session.dataTask(with: request)
            watchdog.start { error in
                exchange.fail(error)
                task.cancel()
            }
            task.resume()
        }
    }

    /// The delegate of one request; its callbacks run one at a time on the session's queue, and the
    /// watchdog's ``fail(_:)`` from its timer: `failure` is behind a lock.
    private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let followOtherHosts: Bool
        let watchdog: TransferWatchdog
        let onResponse: (HTTPResponseHead) throws -> Void
        let onData: (Data) throws -> Void
        var continuation: CheckedContinuation<HTTPResponseHead, any Error>?
        var head: HTTPResponseHead?
        private let lock = NSLock()
        private var firstFailure: (any Error)?

        init(followOtherHosts: Bool, watchdog: TransferWatchdog, onResponse: @escaping (HTTPResponseHead) throws -> Void,
             onData: @escaping (Data) throws -> Void) {
            self.followOtherHosts = followOtherHosts
            self.watchdog = watchdog
            self.onResponse = onResponse
            self.onData = onData
        }

        /// The error the exchange ends with: the first one recorded wins.
        var failure: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return firstFailure
        }

        func fail(_ error: any Error) {
            lock.lock()
            if firstFailure == nil { firstFailure = error }
            lock.unlock()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            guard let target = request.url, HTTPOrigin(target).isHTTP else {
                // A file: URL would be read from this machine's disk: no retry makes that a download. (Linux's
                // URLSession takes such a Location as a path on the same server; other platforms pass it here.)
                fail(HTTPTransportError(kind: .refused, reason: "redirected to '\(request.url?.absoluteString.prefix(200) ?? "?")', not an http(s) URL"))
                completionHandler(nil)
                return task.cancel()
            }
            let sameOrigin = task.originalRequest?.url.map { HTTPOrigin($0) == HTTPOrigin(target) } ?? false
            // As huggingface_hub's HEAD: a relative Location (a renamed repository) is followed, an
            // absolute one (the CDN holding an LFS file) is the answer, with the Hub's headers on it.
            let location = (response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }?.value as? String) ?? ""
            let relative = !location.contains("://")
            guard followOtherHosts || (relative && sameOrigin) else { return completionHandler(nil) }
            var next = request
            // The token is for the origin it was sent to (the Hub's), never for another scheme, host or port.
            if !sameOrigin { next.setValue(nil, forHTTPHeaderField: "Authorization") }
            completionHandler(next)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            watchdog.responded()
            guard failure == nil else { return completionHandler(.cancel) }
            guard let http = response as? HTTPURLResponse, let url = http.url else {
                fail(HTTPTransportError(kind: .refused, reason: "not an HTTP response"))
                return completionHandler(.cancel)
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            let head = HTTPResponseHead(status: http.statusCode, headers: headers, url: url)
            self.head = head
            do {
                try onResponse(head)
                completionHandler(.allow)
            } catch {
                fail(error)
                completionHandler(.cancel)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard failure == nil else { return }
            watchdog.received(data.count)
            do { try onData(data) } catch {
                fail(error)
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let continuation else { return }
            self.continuation = nil
            watchdog.stop()
            if let failure {
                continuation.resume(throwing: failure)
            } else if let error {
                continuation.resume(throwing: Self.transportError(error))
            } else if let head {
                continuation.resume(returning: head)
            } else {
                continuation.resume(throwing: HTTPTransportError(kind: .network, reason: "no response"))
            }
        }

        /// URLError's own text is generic ("The operation could not be completed"): name the cause, and
        /// whether a retry can help (a URL the client cannot fetch stays so).
        private static func transportError(_ error: any Error) -> HTTPTransportError {
            guard let urlError = error as? URLError else { return HTTPTransportError(kind: .network, reason: "\(error)") }
            switch urlError.code {
            case .cannotConnectToHost: return HTTPTransportError(kind: .network, reason: "connection refused")
            case .cannotFindHost, .dnsLookupFailed: return HTTPTransportError(kind: .network, reason: "unknown host")
            case .notConnectedToInternet: return HTTPTransportError(kind: .network, reason: "no network")
            case .timedOut: return HTTPTransportError(kind: .network, reason: "timed out")
            case .networkConnectionLost: return HTTPTransportError(kind: .network, reason: "the connection was cut")
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                 .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                return HTTPTransportError(kind: .network, reason: "TLS failed (\(urlError.localizedDescription))")
            case .unsupportedURL, .badURL, .fileDoesNotExist, .noPermissionsToReadFile, .httpTooManyRedirects, .redirectToNonExistentLocation:
                return HTTPTransportError(kind: .refused, reason: "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            default:
                return HTTPTransportError(kind: .network, reason: "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            }
        }
    }
}
