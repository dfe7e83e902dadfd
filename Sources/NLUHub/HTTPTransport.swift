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

/// Why an HTTP exchange failed below HTTP: no connection, a timeout, a cut connection.
struct HTTPTransportError: Error {
    /// True when the connection failed or dropped (worth resuming), false for a local cause.
    var isNetwork: Bool
    var reason: String
}

/// The few HTTP exchanges the Hub client needs, on URLSession: a HEAD that does not follow
/// redirects to other hosts (the Hub's metadata is on the redirect itself), a small GET read into
/// memory, and a GET streamed to a callback (downloads never sit in memory).
struct HTTPTransport: Sendable {
    /// Seconds without progress before a request fails.
    var timeout: TimeInterval

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
                throw HTTPTransportError(isNetwork: false, reason: "the answer is larger than \(limit) bytes")
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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        let exchange = Exchange(followOtherHosts: followOtherHosts, onResponse: onResponse, onData: onData)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1   // the delegate's state is touched from this one queue
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }   // a session keeps its delegate until invalidated
        return try await withCheckedThrowingContinuation { continuation in
            exchange.continuation = continuation
            session.dataTask(with: request).resume()
        }
    }

    /// The delegate of one request; its callbacks run one at a time on the session's queue.
    private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let followOtherHosts: Bool
        let onResponse: (HTTPResponseHead) throws -> Void
        let onData: (Data) throws -> Void
        var continuation: CheckedContinuation<HTTPResponseHead, any Error>?
        var head: HTTPResponseHead?
        var failure: (any Error)?

        init(followOtherHosts: Bool, onResponse: @escaping (HTTPResponseHead) throws -> Void,
             onData: @escaping (Data) throws -> Void) {
            self.followOtherHosts = followOtherHosts
            self.onResponse = onResponse
            self.onData = onData
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            let sameHost = request.url?.host == task.originalRequest?.url?.host
                && request.url?.port == task.originalRequest?.url?.port
            // As huggingface_hub's HEAD: a relative Location (a renamed repository) is followed, an
            // absolute one (the CDN holding an LFS file) is the answer, with the Hub's headers on it.
            let location = (response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }?.value as? String) ?? ""
            let relative = !location.contains("://")
            guard followOtherHosts || (relative && sameHost) else { return completionHandler(nil) }
            var next = request
            // The token is for the Hub only, never for the storage a file is redirected to.
            if !sameHost { next.setValue(nil, forHTTPHeaderField: "Authorization") }
            completionHandler(next)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let http = response as? HTTPURLResponse, let url = http.url else {
                failure = HTTPTransportError(isNetwork: false, reason: "not an HTTP response")
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
                failure = error
                completionHandler(.cancel)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard failure == nil else { return }
            do { try onData(data) } catch {
                failure = error
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let continuation else { return }
            self.continuation = nil
            if let failure {
                continuation.resume(throwing: failure)
            } else if let error {
                continuation.resume(throwing: HTTPTransportError(isNetwork: true, reason: Self.describe(error)))
            } else if let head {
                continuation.resume(returning: head)
            } else {
                continuation.resume(throwing: HTTPTransportError(isNetwork: true, reason: "no response"))
            }
        }

        /// URLError's own text is generic ("The operation could not be completed"): name the cause.
        private static func describe(_ error: any Error) -> String {
            guard let urlError = error as? URLError else { return "\(error)" }
            switch urlError.code {
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "unknown host"
            case .notConnectedToInternet: return "no network"
            case .timedOut: return "timed out"
            case .networkConnectionLost: return "the connection was cut"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                 .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                return "TLS failed (\(urlError.localizedDescription))"
            default: return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
            }
        }
    }
}
