#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A blob being downloaded: `blobs/ETAG.incomplete`, opened for appending where the last attempt
/// stopped, never allowed to grow past the size the Hub announced.
final class PartialBlob: @unchecked Sendable {   // written from the transport's one delegate queue at a time
    let url: URL
    let expectedSize: Int64
    /// Bytes in the file.
    private(set) var length: Int64
    /// Bytes appended by this attempt.
    private(set) var received: Int64 = 0
    private var descriptor: Int32

    init(url: URL, expectedSize: Int64) throws {
        self.url = url
        self.expectedSize = expectedSize
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw HubError.cacheWrite(path: url.path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HubError.cacheWrite(path: url.path, reason: reason)
        }
        self.descriptor = descriptor
        length = Int64(status.st_size)
        if length > expectedSize {   // left by a different file under the same name: start over
            try restart()
        }
    }

    /// Empties the file (the server sent the whole file instead of the rest).
    func restart() throws {
        guard ftruncate(descriptor, 0) == 0 else { throw HubError.cacheWrite(path: url.path, reason: String(cString: strerror(errno))) }
        length = 0
    }

    /// Appends `chunk`. More bytes than announced means the server sends something else than it said.
    func append(_ chunk: Data, file: String) throws {
        guard length + Int64(chunk.count) <= expectedSize else {
            throw HubError.corruptDownload(file: file, reason: "more than the \(expectedSize) bytes announced")
        }
        try chunk.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw HubError.cacheWrite(path: url.path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
        length += Int64(chunk.count)
        received += Int64(chunk.count)
    }

    /// Checks the finished file: its size, and its SHA-256 when the Hub named it by one; flushes it to disk.
    func finish(file: String, sha256 expected: String?) throws {
        guard length == expectedSize else {
            throw HubError.interrupted(file: file, received: length, expected: expectedSize, reason: "the body ended early")
        }
        guard fsync(descriptor) == 0 else { throw HubError.cacheWrite(path: url.path, reason: String(cString: strerror(errno))) }
        guard let expected else { return }
        guard let reader = FileHandle(forReadingAtPath: url.path) else {
            throw HubError.cacheWrite(path: url.path, reason: "cannot read it back")
        }
        defer { try? reader.close() }
        var digest = SHA256()
        while let chunk = try? reader.read(upToCount: 1 << 20), !chunk.isEmpty { digest.update(chunk) }
        let actual = digest.hexDigest()
        guard actual == expected else {
            throw HubError.corruptDownload(file: file, reason: "SHA-256 \(actual.prefix(12))…, expected \(expected.prefix(12))…")
        }
    }

    func closeFile() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }
}
