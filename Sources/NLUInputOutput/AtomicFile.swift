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
/// Every file NLUKit writes goes through here (model packages, datasets, command outputs).
///
///     try AtomicFile.write(to: url) { output in
///         try output.write(Data("hello".utf8))
///     }
public enum AtomicFile {
    /// The open temporary file that ``write(to:_:)`` hands to its body.
    public struct Output {
        // Internal, not fileprivate: `createNew(at:permissions:_:)` hands one to its body too.
        let descriptor: Int32
        let url: URL

        /// Appends `bytes` to the file.
        public func write(_ bytes: UnsafeRawBufferPointer) throws {
            do {
                try StreamOutput(descriptor: descriptor, name: url.path).write(bytes)
            } catch let StreamOutput.Failure.failed(_, reason) {
                throw WriteError(file: url, reason: "cannot write: \(reason)")
            } catch {
                throw WriteError(file: url, reason: "cannot write: the reader closed it")
            }
        }

        /// Appends `data` to the file.
        public func write(_ data: Data) throws {
            try data.withUnsafeBytes { try write($0) }
        }
    }

    /// Creates the file at `url` with what `body` writes, replacing any existing file atomically.
    /// On any error the destination is left as it was and the temporary file is removed.
    ///
    /// A symbolic link at `url` is followed: its target is replaced and the link kept. A special
    /// file there (FIFO, device) is written in place, never replaced; a directory is refused.
    /// The new file keeps an existing file's permissions.
    public static func write(to url: URL, _ body: (Output) throws -> Void) throws {
        // Followed through links first: /dev/stdout links to names like "pipe:[1234]" that are no path.
        var followed = stat()
        if stat(url.path, &followed) == 0 {
            switch followed.st_mode & S_IFMT {
            case S_IFDIR: throw WriteError(file: url, reason: "is a directory; give a file path")
            case S_IFREG: break
            default:
                try writeInPlace(to: url, body)
                return
            }
        }
        let target = try ExistingPath.resolvingSymbolicLinks(url)
        var existing = stat()
        let mode = stat(target.path, &existing) == 0 ? mode_t(existing.st_mode & 0o7777) : 0o644
        try writeTemporary(beside: target, for: url, mode: mode, body) { temporary in
            guard rename(temporary.path, target.path) == 0 else { throw error(url, "cannot move the new file into place") }
        }
    }

    /// Writes `body`'s output to a new temporary file beside `target` (created with `mode`, flushed and
    /// closed), then lets `place` move it to where it belongs; the temporary's name is gone afterwards
    /// whatever happened. Errors name `url`, the path the caller was given.
    static func writeTemporary<Result>(beside target: URL, for url: URL, mode: mode_t, _ body: (Output) throws -> Void,
                                       place: (URL) throws -> Result) throws -> Result {
        removeAbandonedTemporaries(beside: target)
        let temporary = temporaryURL(beside: target)
        let (descriptor, openError) = TemporaryFiles.create(temporary) {
            (open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode), errno)
        }
        defer { TemporaryFiles.unregister(temporary) }
        guard descriptor >= 0 else {
            let folder = target.deletingLastPathComponent().path
            errno = openError  // `error(_:_:)` names it
            switch openError {
            case ENOENT: throw WriteError(file: url, reason: "the folder \(folder) does not exist")
            case EACCES, EROFS: throw error(url, "cannot create a file in the folder \(folder)")
            default: throw error(url, "cannot create the temporary file \(temporary.lastPathComponent)")
            }
        }
        // After a rename the name is already gone; after a link the file lives on under its new name.
        defer { unlink(temporary.path) }
        do {
            _ = fchmod(descriptor, mode)  // the umask may have narrowed it; never widened beyond `mode`
            try body(Output(descriptor: descriptor, url: url))
            guard fsync(descriptor) == 0 else { throw error(url, "cannot flush") }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw error(url, "cannot close") }
        return try place(temporary)
    }

    /// Writes a FIFO or device directly: there is nothing to swap, and renaming over it would replace the node.
    private static func writeInPlace(to url: URL, _ body: (Output) throws -> Void) throws {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error(url, "cannot open") }
        do {
            try body(Output(descriptor: descriptor, url: url))
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw error(url, "cannot close") }
    }

    /// A fresh name in the destination's directory (same file system, so the final rename is atomic):
    /// `NAME.tmp-PID-RANDOM`, the process id telling a later writer whether its owner is still alive.
    public static func temporaryURL(beside url: URL) -> URL {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() & 0xFFFF_FFFF, radix: 16)
        return url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).tmp-\(getpid())-\(suffix)")
    }

    /// Removes `NAME.tmp-PID-*` files and folders beside `url` whose process no longer runs: what a
    /// writer killed with SIGKILL (or a power cut) left behind. Only names this writer makes are touched
    /// (and SQLite's `-wal`, `-shm` and `-journal` files of such a temporary database).
    public static func removeAbandonedTemporaries(beside url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 2 || (parts.count == 3 && ["wal", "shm", "journal"].contains(parts[2])),
                  let pid = Int32(parts[0]), pid > 0, pid != getpid(), parts[1].allSatisfy(\.isHexDigit) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
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
