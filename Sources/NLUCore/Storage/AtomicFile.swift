#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a file atomically: into a temporary file beside the destination, flushed to disk, then
/// renamed over it, so readers see either the old file or the complete new one, never a torn one.
///
///     try AtomicFile.write(to: url) { output in
///         try output.write(Data("hello".utf8))
///     }
public enum AtomicFile {
    /// The open temporary file that ``write(to:_:)`` hands to its body.
    public struct Output {
        fileprivate let descriptor: Int32
        fileprivate let url: URL

        /// Appends `bytes` to the file.
        public func write(_ bytes: UnsafeRawBufferPointer) throws {
            var remaining = bytes
            while let base = remaining.baseAddress, !remaining.isEmpty {
                let written = systemWrite(descriptor, base, remaining.count)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.error(url, "cannot write")
                }
                remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
            }
        }

        /// Appends `data` to the file.
        public func write(_ data: Data) throws {
            try data.withUnsafeBytes { try write($0) }
        }
    }

    /// Creates the file at `url` with what `body` writes, replacing any existing file atomically.
    /// On any error the destination is left as it was and the temporary file is removed.
    public static func write(to url: URL, _ body: (Output) throws -> Void) throws {
        let temporary = temporaryURL(beside: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw error(url, "cannot create the temporary file \(temporary.lastPathComponent)") }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        do {
            try body(Output(descriptor: descriptor, url: url))
            guard fsync(descriptor) == 0 else { throw error(url, "cannot flush") }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw error(url, "cannot close") }
        guard rename(temporary.path, url.path) == 0 else { throw error(url, "cannot move the new file into place") }
        renamed = true
    }

    /// A fresh name in the destination's directory (same file system, so the final rename is atomic).
    static func temporaryURL(beside url: URL) -> URL {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() & 0xFFFF_FFFF, radix: 16)
        return url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).tmp-\(suffix)")
    }

    /// Why an atomic write failed: the destination and the system's reason.
    public struct WriteError: Error, Equatable, CustomStringConvertible, LocalizedError {
        public var file: URL
        public var reason: String
        public var description: String { "\(file.path): \(reason)" }
        public var errorDescription: String? { description }
    }

    static func error(_ url: URL, _ what: String) -> WriteError {
        WriteError(file: url, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}

// `write` inside `Output` would resolve to the method; this names the system call.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
