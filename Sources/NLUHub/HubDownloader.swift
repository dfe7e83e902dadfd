import Foundation
import NLUCore

/// Downloads a model from the Hugging Face Hub into the Hugging Face cache, the way
/// `huggingface_hub.snapshot_download` does, so `--model ORG/NAME` (and Python) then find it:
/// the revision's commit and file list from `GET api/models/ID/revision/REV`, each file's ETag and
/// size from a `HEAD` of `resolve/COMMIT/FILE`, its bytes from a `GET` of the same URL.
///
/// Each file goes to `blobs/ETAG.incomplete` first and is renamed to `blobs/ETAG` only when its size
/// (and, for large LFS files, whose ETag is their SHA-256, its digest) is right; an interrupted
/// transfer keeps the `.incomplete` part and the next attempt asks for the rest with `Range`.
/// `refs/REVISION` is written last, so a model never resolves to a snapshot with files missing.
///
///     let downloader = HubDownloader(configuration: try HubConfiguration())
///     let result = try await downloader.download(HubModelID("sentence-transformers/all-MiniLM-L6-v2")!)
///     let embedder = try SentenceEmbedder(modelDirectory: result.snapshot)
public struct HubDownloader: Sendable {
    public var configuration: HubConfiguration
    /// How many times a cut transfer is resumed within one call before the error is reported.
    public var retries: Int = 3

    public init(configuration: HubConfiguration) {
        self.configuration = configuration
    }

    /// Downloads the files of `id` (at `id.revision`, else `main`) that `filter` selects.
    /// Files already in the cache are not fetched again. When the Hub cannot be reached and the cache
    /// holds the revision, the cached snapshot is the answer (``HubDownloadResult/unreachableReason``
    /// says why), as huggingface_hub's `snapshot_download` falls back to it.
    /// - Throws: ``HubError``: no such model/revision, access denied, network down, stalled or past the
    ///   deadline (``HubConfiguration/stallTimeout``, ``HubConfiguration/deadline``), corrupt download.
    public func download(_ id: HubModelID, filter: HubFileFilter = .nlukit,
                         progress: @escaping @Sendable (HubDownloadProgress) -> Void = { _ in }) async throws -> HubDownloadResult {
        let revision = id.revision ?? "main"
        // `revision` becomes a path under refs/: the same check as HubModelID's parse of ORG/NAME@REV.
        guard HubModelID.isValidRevision(revision) else { throw HubError.invalidRevision(revision) }
        let repository = HubCacheRepository(cache: configuration.cache, folderName: id.cacheFolderName)
        if configuration.offline { return try cachedSnapshot(id, revision: revision, filter: filter, in: repository) }
        let transport = HTTPTransport(stallTimeout: configuration.stallTimeout,
                                      deadline: configuration.deadline.map { TransferWatchdog.Deadline(seconds: $0) })
        let info: HubRepositoryInfo
        do {
            info = try await repositoryInfo(id: id.repository, revision: revision, transport: transport)
        } catch let error as HubError {
            guard error.isUnreachable, var cached = try? cachedSnapshot(id, revision: revision, filter: filter, in: repository) else {
                throw error
            }
            cached.unreachableReason = error.description
            return cached
        }
        let files = info.siblings.map(\.rfilename).filter(filter.includes)
        guard !files.isEmpty else {
            let listed = info.siblings.prefix(20).map(\.rfilename).joined(separator: ", ")
            throw HubError.invalidResponse(url: id.repository,
                reason: "no file matches \(filter.patterns.joined(separator: " ")) (the repository has: \(listed.isEmpty ? "no files" : listed))")
        }
        var received: Int64 = 0
        for (index, file) in files.enumerated() {
            let pointer = repository.pointer(commit: info.sha, file: file)
            if FileManager.default.fileExists(atPath: pointer.path) {   // follows the link: a dangling one is fetched again
                let size = (try? FileManager.default.attributesOfItem(atPath: pointer.path)[.size] as? Int64) ?? 0
                progress(HubDownloadProgress(file: file, fileNumber: index + 1, fileCount: files.count, bytes: size, totalBytes: size))
                continue
            }
            received += try await downloadFile(file, id: id.repository, commit: info.sha, into: repository, transport: transport) { bytes, total in
                progress(HubDownloadProgress(file: file, fileNumber: index + 1, fileCount: files.count, bytes: bytes, totalBytes: total))
            }
        }
        try repository.writeReference(revision: revision, commit: info.sha)
        return HubDownloadResult(snapshot: repository.snapshot(commit: info.sha), commit: info.sha, files: files, bytesReceived: received)
    }

    /// Offline mode: the snapshot the cache has for `revision`, as huggingface_hub's `snapshot_download` finds it
    /// without the network (the revision is a commit hash, else `refs/REVISION` names the commit), with the files
    /// of it `filter` selects. huggingface_hub returns the folder without looking inside; a snapshot with none of
    /// the files asked for is no answer here (it was filled for another `--include`).
    private func cachedSnapshot(_ id: HubModelID, revision: String, filter: HubFileFilter,
                                in repository: HubCacheRepository) throws -> HubDownloadResult {
        guard let commit = repository.commit(revision: revision) else {
            throw HubError.notCachedOffline(id: id.repository, revision: revision, cache: configuration.cache.path,
                                            setting: configuration.offlineSetting)
        }
        let snapshot = repository.snapshot(commit: commit)
        let files = repository.files(commit: commit).filter(filter.includes)
        guard !files.isEmpty else {
            throw HubError.noCachedFileOffline(id: id.repository, commit: commit, patterns: filter.patterns, setting: configuration.offlineSetting)
        }
        return HubDownloadResult(snapshot: snapshot, commit: commit, files: files, bytesReceived: 0, offline: true)
    }

    // MARK: - Requests

    private var headers: [String: String] {
        var headers = ["User-Agent": "nlukit/\(NLUKitVersion.string)", "Accept-Encoding": "identity"]
        if let token = configuration.token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    /// `ENDPOINT/PATH` with each component percent-encoded as huggingface_hub quotes them.
    private func url(_ components: [String]) -> URL {
        var url = configuration.endpoint
        for component in components { url.appendPathComponent(component) }
        return url
    }

    private func repositoryInfo(id: String, revision: String, transport: HTTPTransport) async throws -> HubRepositoryInfo {
        // The revision is one path component even when it holds "/" (refs/pr/1), as Python's quote(safe="").
        let encodedRevision = revision.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? revision
        let address = configuration.endpoint.absoluteString + "/api/models/" + id + "/revision/" + encodedRevision
        guard let url = URL(string: address) else { throw HubError.invalidResponse(url: address, reason: "not a URL") }
        let (head, body): (HTTPResponseHead, Data)
        do {
            (head, body) = try await transport.get(url, headers: headers, limit: 64 << 20)
        } catch let error as HTTPTransportError {
            throw failure(error, fetching: "the file list of \(id)@\(revision)", from: url)
        }
        try check(head, id: id, revision: revision, file: nil)
        return try HubRepositoryInfo.decode(body, url: address)
    }

    /// What a request for `what` (a file, or the file list) that failed below HTTP means to the user:
    /// a limit passed, a refusal no retry changes, or a network failure (`network`: by default, a server
    /// that cannot be reached).
    private func failure(_ error: HTTPTransportError, fetching what: String, from url: URL, received: Int64 = 0,
                         network: ((String) -> HubError)? = nil) -> HubError {
        let host = url.host ?? url.absoluteString
        switch error.kind {
        case let .stalled(seconds): return .stalled(file: what, host: host, seconds: seconds, received: received)
        case let .deadline(seconds): return .deadlineExceeded(file: what, host: host, seconds: seconds, received: received)
        case .refused: return .invalidResponse(url: url.absoluteString, reason: error.reason)
        case .network: return network?(error.reason) ?? .unreachable(endpoint: configuration.endpoint.absoluteString, reason: error.reason)
        }
    }

    /// Maps the Hub's error answers (`X-Error-Code`, as huggingface_hub's hf_raise_for_status reads it).
    private func check(_ head: HTTPResponseHead, id: String, revision: String, file: String?) throws {
        if (200..<400).contains(head.status) { return }
        let tokenSent = configuration.token != nil
        switch (head.header("X-Error-Code"), head.status) {
        case ("RevisionNotFound", _): throw HubError.noSuchRevision(id: id, revision: revision)
        case ("EntryNotFound", _): throw HubError.noSuchFile(id: id, file: file ?? "?")
        case ("GatedRepo", _), (_, 403): throw HubError.accessDenied(id: id, tokenSent: tokenSent)
        case ("RepoNotFound", _), (_, 401): throw HubError.noSuchModel(id: id, tokenSent: tokenSent)
        case (_, 404):
            if let file { throw HubError.noSuchFile(id: id, file: file) }
            throw HubError.noSuchModel(id: id, tokenSent: tokenSent)
        default: throw HubError.httpStatus(url: head.url.absoluteString, status: head.status)
        }
    }

    /// The file's metadata (`HEAD`), then its bytes into the blob; returns the bytes received.
    private func downloadFile(_ file: String, id: String, commit: String, into repository: HubCacheRepository, transport: HTTPTransport,
                              progress: @escaping (Int64, Int64) -> Void) async throws -> Int64 {
        let resolve = url(id.split(separator: "/").map(String.init) + ["resolve", commit] + file.split(separator: "/").map(String.init))
        let head: HTTPResponseHead
        do {
            head = try await transport.head(resolve, headers: headers)
        } catch let error as HTTPTransportError {
            throw failure(error, fetching: file, from: resolve)
        }
        try check(head, id: id, revision: commit, file: file)
        let metadata = try FileMetadata(head, url: resolve.absoluteString)
        let blob = repository.blob(etag: metadata.etag)
        var received: Int64 = 0
        if !FileManager.default.fileExists(atPath: blob.path) {
            try repository.makeDirectory(blob.deletingLastPathComponent())
            try checkSpace(for: file, metadata: metadata, in: repository)
            received = try await repository.withLock(etag: metadata.etag) {
                // Someone else (another nlu, Python) may have finished it while we waited for the lock.
                if FileManager.default.fileExists(atPath: blob.path) { return 0 }
                return try await fetchBlob(file, from: metadata.location ?? resolve, metadata: metadata, repository: repository,
                                           transport: transport, progress: progress)
            }
        } else {
            progress(metadata.size, metadata.size)
        }
        try repository.link(commit: commit, file: file, etag: metadata.etag)
        return received
    }

    /// Refuses a file the cache's disk cannot hold (a server declaring 2^62 bytes): no retry would fit it,
    /// so this is said before a byte is fetched rather than as an interruption to resume.
    private func checkSpace(for file: String, metadata: FileMetadata, in repository: HubCacheRepository) throws {
        guard let available = repository.availableBytes() else { return }
        let kept = (try? FileManager.default.attributesOfItem(atPath: repository.incompleteBlob(etag: metadata.etag).path)[.size] as? Int64) ?? 0
        if metadata.size - min(kept, metadata.size) > available {
            throw HubError.tooLarge(file: file, size: metadata.size, available: available, cache: configuration.cache.path)
        }
    }

    /// What a `HEAD` of `resolve/COMMIT/FILE` says about the file.
    private struct FileMetadata {
        var etag: String
        var size: Int64
        /// Where the bytes are when the Hub redirects (LFS files live on a CDN).
        var location: URL?

        init(_ head: HTTPResponseHead, url: String) throws {
            // huggingface_hub prefers X-Linked-Etag (the LFS file's SHA-256 on a redirect) and strips W/ and quotes.
            guard var etag = head.header("X-Linked-Etag") ?? head.header("ETag") else {
                throw HubError.invalidResponse(url: url, reason: "no ETag header")
            }
            if etag.hasPrefix("W/") { etag.removeFirst(2) }
            etag = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard HubRepositoryInfo.isSafeRelativePath(etag), !etag.contains("/"), etag.utf8.count <= 255 else {
                throw HubError.invalidResponse(url: url, reason: "ETag '\(etag.prefix(80))' cannot name a file")
            }
            guard let sizeText = head.header("X-Linked-Size") ?? head.header("Content-Length"),
                  let size = Int64(sizeText.trimmingCharacters(in: .whitespaces)), size >= 0 else {
                throw HubError.invalidResponse(url: url, reason: "no file size (X-Linked-Size or Content-Length)")
            }
            self.etag = etag
            self.size = size
            if (300..<400).contains(head.status), let target = head.header("Location") {
                // A file: or ftp: location would have libcurl read this machine's disk or another protocol.
                guard let location = URL(string: target, relativeTo: head.url)?.absoluteURL, HTTPOrigin(location).isHTTP else {
                    throw HubError.invalidResponse(url: url, reason: "the file is redirected to '\(target.prefix(200))', not an http(s) URL")
                }
                self.location = location
            }
        }

        /// Large (LFS) files are named by the SHA-256 of their bytes; small ones by a git hash we do not check.
        var sha256: String? {
            etag.utf8.count == 64 && etag.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } ? etag : nil
        }
    }

    /// Fills `blobs/ETAG.incomplete` (resuming what is there), checks it, and renames it to `blobs/ETAG`.
    private func fetchBlob(_ file: String, from url: URL, metadata: FileMetadata, repository: HubCacheRepository,
                           transport: HTTPTransport, progress: @escaping (Int64, Int64) -> Void) async throws -> Int64 {
        let incomplete = repository.incompleteBlob(etag: metadata.etag)
        let blob = repository.blob(etag: metadata.etag)
        var attempt = 0
        var received: Int64 = 0
        while true {
            let part = try PartialBlob(url: incomplete, expectedSize: metadata.size)
            defer { part.closeFile() }
            do {
                if part.length < metadata.size {
                    defer { received += part.received }
                    try await transfer(file, from: url, into: part, transport: transport, progress: progress)
                }
                try part.finish(file: file, sha256: metadata.sha256)
                break
            } catch let error as HubError {
                // A corrupt part is worth nothing; an interrupted one is kept for the next attempt.
                if case .corruptDownload = error { try? FileManager.default.removeItem(at: incomplete) }
                guard error.isResumable, attempt < retries else { throw error }
                attempt += 1
            }
        }
        guard rename(incomplete.path, blob.path) == 0 else {
            throw HubError.cacheWrite(path: blob.path, reason: String(cString: strerror(errno)))
        }
        return received
    }

    /// One GET of the rest of the file into `part`.
    private func transfer(_ file: String, from url: URL, into part: PartialBlob, transport: HTTPTransport,
                          progress: @escaping (Int64, Int64) -> Void) async throws {
        var requestHeaders = headers
        // The token is for the endpoint's origin only: another host, port or scheme (the CDN) never sees it.
        if HTTPOrigin(url) != HTTPOrigin(configuration.endpoint) { requestHeaders["Authorization"] = nil }
        let start = part.length
        if start > 0 { requestHeaders["Range"] = "bytes=\(start)-" }
        let expected = part.expectedSize
        let progressBox = ProgressBox(progress)
        do {
            _ = try await transport.stream(url, headers: requestHeaders, onResponse: { head in
                switch head.status {
                case 206 where start > 0:
                    // "bytes START-END/TOTAL": the rest must start where our part ends.
                    let range = head.header("Content-Range") ?? ""
                    guard range.hasPrefix("bytes \(start)-") else {
                        throw HubError.corruptDownload(file: file, reason: "asked for bytes from \(start), got '\(range)'")
                    }
                case 200:
                    try part.restart()   // the server ignored Range: take the whole file again
                default:
                    throw HubError.httpStatus(url: head.url.absoluteString, status: head.status)
                }
            }, onData: { chunk in
                try part.append(chunk, file: file)
                progressBox.report(part.length, expected)
            })
        } catch let error as HTTPTransportError {
            throw failure(error, fetching: file, from: url, received: part.length) {
                .interrupted(file: file, received: part.length, expected: expected, reason: $0)
            }
        }
        if part.length < expected {
            throw HubError.interrupted(file: file, received: part.length, expected: expected, reason: "the server ended the body early")
        }
    }

    /// Calls a non-Sendable progress closure from the transport's one delegate queue.
    private final class ProgressBox: @unchecked Sendable {
        let report: (Int64, Int64) -> Void
        init(_ report: @escaping (Int64, Int64) -> Void) { self.report = report }
    }
}
