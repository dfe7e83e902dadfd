import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
@testable import NLUHub
import NLUTestSupport

/// A Hub-shaped HTTP server on loopback, in the test process: the endpoints `huggingface_hub` uses
/// (`GET /api/models/ID/revision/REV`, `HEAD`/`GET /ID/resolve/REV/FILE` with `X-Repo-Commit`, `ETag`,
/// `X-Linked-Etag`/`X-Linked-Size` and a redirect to a "CDN" for LFS files, `Range`), and faults to
/// inject: a body cut after N bytes, a corrupt body, a required token, a trickled body, a declared size
/// or a redirect of the server's choosing, LFS files on another server (`cdn`).
final class HubTestServer: @unchecked Sendable {
    struct Repository {
        var commit: String
        /// Files by path; `lfs` ones are served as the Hub serves LFS files (SHA-256 ETag, CDN redirect).
        var files: [(path: String, bytes: Data, lfs: Bool)]
        var branches: [String: String] = [:]   // ref -> commit (main is added)
    }

    /// What the server saw: method, path, Range and Authorization of each request.
    struct Seen: Equatable {
        var method: String
        var path: String
        var range: String?
        var authorization: String?
    }

    private let lock = NSLock()
    private var repositories: [String: Repository] = [:]
    private var cuts: [String: Int] = [:]          // file path -> bytes sent before the connection is cut (once)
    private var corruptions: Set<String> = []      // file paths served with flipped bytes
    private var seen: [Seen] = []
    private var trickles: [String: Duration] = [:]   // file path -> one byte of the body per this long
    private var declaredSizes: [String: Int64] = [:] // file path -> the X-Linked-Size announced for an LFS file
    private var locations: [String: String] = [:]    // file path -> the Location of an LFS file's redirect
    private var redirects: [String: String] = [:]    // request path -> a 302 to this Location, before anything else
    var requiredToken: String?
    /// Where LFS files are said to be (their `/cdn/` path on that server); by default this server under another host name.
    var cdn: URL?
    private(set) var port = 0
    private var task: Task<Void, any Error>?

    func add(_ id: String, _ repository: Repository) { locked { repositories[id] = repository } }
    /// The next GET of `path` sends `bytes` bytes of the body (with the full Content-Length) and closes.
    func cut(_ path: String, after bytes: Int) { locked { cuts[path] = bytes } }
    func corrupt(_ path: String) { _ = locked { corruptions.insert(path) } }
    /// The body of `path` comes one byte per `interval` (a server that never quite stops).
    func trickle(_ path: String, every interval: Duration) { locked { trickles[path] = interval } }
    /// The LFS file `path` is announced as `size` bytes.
    func declare(_ path: String, size: Int64) { locked { declaredSizes[path] = size } }
    /// The LFS file `path` is redirected to `location` (any URL, `file:` too).
    func locate(_ path: String, at location: String) { locked { locations[path] = location } }
    /// Any request for `requestPath` is answered 302 to `location`.
    func redirect(_ requestPath: String, to location: String) { locked { redirects[requestPath] = location } }
    var requests: [Seen] { locked { seen } }
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func start() async throws {
        let router = Router()
        router.get("**") { request, _ in self.answer(request) }
        router.head("**") { request, _ in self.answer(request) }
        var logger = Logger(label: "test.hub")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        task = Task(executorPreference: ServerThreads.shared) { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        port = await iterator.next() ?? 0
    }

    func stop() async {
        task?.cancel()
        _ = try? await task?.value
    }

    private func answer(_ request: Request) -> Response {
        let path = request.uri.path.removingPercentEncoding ?? request.uri.path
        let isHead = request.method == .head
        let authorization = request.headers[.authorization]
        let range = request.headers[.range]
        return locked {
            seen.append(Seen(method: isHead ? "HEAD" : "GET", path: path, range: range, authorization: authorization))
            if let location = redirects[path] { return Response(status: .found, headers: [.location: location, .contentLength: "0"]) }
            if path.hasPrefix("/cdn/") { return cdn(path: path, range: range, isHead: isHead) }
            if let requiredToken, authorization != "Bearer \(requiredToken)" {
                return Response(status: .unauthorized, headers: [HTTPField.Name("X-Error-Code")!: "RepoNotFound"])
            }
            if path.hasPrefix("/api/models/") { return info(path: String(path.dropFirst("/api/models/".count))) }
            return resolve(path: String(path.dropFirst()), range: range, isHead: isHead)
        }
    }

    /// `ORG/NAME/revision/REV`
    private func info(path: String) -> Response {
        guard let marker = path.range(of: "/revision/") else { return Response(status: .notFound) }
        let id = String(path[..<marker.lowerBound]), revision = String(path[marker.upperBound...])
        guard let repository = repositories[id] else {
            return Response(status: .unauthorized, headers: [HTTPField.Name("X-Error-Code")!: "RepoNotFound"])
        }
        guard let commit = commit(of: repository, revision: revision) else {
            return Response(status: .notFound, headers: [HTTPField.Name("X-Error-Code")!: "RevisionNotFound"])
        }
        let siblings = repository.files.map { ["rfilename": $0.path] }
        let body = try! JSONSerialization.data(withJSONObject: ["id": id, "sha": commit, "siblings": siblings])
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func commit(of repository: Repository, revision: String) -> String? {
        if revision == repository.commit || revision == "main" { return repository.commit }
        if repository.branches.values.contains(revision) { return revision }
        return repository.branches[revision]
    }

    /// `ORG/NAME/resolve/REV/FILE`
    private func resolve(path: String, range: String?, isHead: Bool) -> Response {
        guard let marker = path.range(of: "/resolve/") else { return Response(status: .notFound) }
        let id = String(path[..<marker.lowerBound])
        let rest = path[marker.upperBound...]
        guard let slash = rest.firstIndex(of: "/"), let repository = repositories[id] else {
            return Response(status: .unauthorized, headers: [HTTPField.Name("X-Error-Code")!: "RepoNotFound"])
        }
        let file = String(rest[rest.index(after: slash)...])
        guard let commit = commit(of: repository, revision: String(rest[..<slash])),
              let entry = repository.files.first(where: { $0.path == file }) else {
            return Response(status: .notFound, headers: [HTTPField.Name("X-Error-Code")!: "EntryNotFound"])
        }
        var headers: HTTPFields = [HTTPField.Name("X-Repo-Commit")!: commit]
        if entry.lfs {
            var digest = SHA256()
            digest.update(entry.bytes)
            let sha = digest.hexDigest()
            headers[HTTPField.Name("X-Linked-Etag")!] = "\"\(sha)\""
            headers[HTTPField.Name("X-Linked-Size")!] = "\(declaredSizes[file] ?? Int64(entry.bytes.count))"
            headers[.eTag] = "\"git-pointer-etag\""
            // Another host name for the same server: the token must not follow the redirect.
            headers[.location] = locations[file] ?? (cdn?.absoluteString ?? "http://localhost:\(port)") + "/cdn/\(id)/\(file)"
            headers[.contentLength] = "0"
            return Response(status: .found, headers: headers)
        }
        headers[.eTag] = "\"\(Self.gitBlobName(entry.bytes))\""
        return body(entry.bytes, file: file, headers: headers, range: range, isHead: isHead)
    }

    private func cdn(path: String, range: String?, isHead: Bool) -> Response {
        let rest = path.dropFirst("/cdn/".count).split(separator: "/", maxSplits: 2).map(String.init)
        guard rest.count == 3, let repository = repositories[rest[0] + "/" + rest[1]],
              let entry = repository.files.first(where: { $0.path == rest[2] }) else { return Response(status: .notFound) }
        return body(entry.bytes, file: rest[2], headers: [:], range: range, isHead: isHead)
    }

    private func body(_ bytes: Data, file: String, headers: HTTPFields, range: String?, isHead: Bool) -> Response {
        var headers = headers
        var content = bytes
        if corruptions.contains(file), !content.isEmpty { content[content.startIndex] ^= 0xFF }
        var status = HTTPResponse.Status.ok
        if let range, range.hasPrefix("bytes="), range.hasSuffix("-"), let start = Int(range.dropFirst(6).dropLast()) {
            guard start < content.count else { return Response(status: .rangeNotSatisfiable) }
            headers[.contentRange] = "bytes \(start)-\(content.count - 1)/\(content.count)"
            content = content.subdata(in: start..<content.count)
            status = .partialContent
        }
        headers[.contentLength] = "\(content.count)"
        if isHead { return Response(status: status, headers: headers) }
        if let interval = trickles[file] {
            let trickled = content
            return Response(status: status, headers: headers, body: ResponseBody { writer in
                for byte in trickled {
                    try await writer.write(ByteBuffer(bytes: [byte]))
                    try await Task.sleep(for: interval)
                }
                try await writer.finish(nil)
            })
        }
        if let cut = cuts.removeValue(forKey: file) {
            let sent = content.prefix(cut)
            return Response(status: status, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: sent))
                throw CancellationError()   // the connection drops mid-body
            })
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: content)))
    }

    /// A stand-in for git's blob hash (the Hub's ETag of a small file): 40 hex digits from the bytes.
    static func gitBlobName(_ bytes: Data) -> String {
        var digest = SHA256()
        digest.update(Data("blob \(bytes.count)\u{0}".utf8) + bytes)
        return String(digest.hexDigest().prefix(40))
    }
}
