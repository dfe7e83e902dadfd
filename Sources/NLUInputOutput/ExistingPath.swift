#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What sits at a path before something is written there, seen without following a final
/// symbolic link (``resolvingSymbolicLinks(_:)`` follows them first). Writers use it to decide
/// whether they may replace what is there, and how.
public enum ExistingPath: Equatable, Sendable {
    case nothing
    case regularFile
    case directory
    /// A FIFO, a character or block device or a socket: written in place, never replaced.
    case specialFile
    case symbolicLink

    /// What is at `url` now (the final component's own type: a link is reported as a link).
    public init(_ url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { self = .nothing; return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        default: self = .specialFile
        }
    }

    /// `url` with symbolic links in its final component followed to their target (also a dangling
    /// link's target, which a writer then creates), so that writing replaces the target and keeps the link.
    /// - Throws: ``AtomicFile/WriteError`` for a loop of links (more than 40).
    public static func resolvingSymbolicLinks(_ url: URL) throws -> URL {
        var current = url
        for _ in 0..<40 {
            guard ExistingPath(current) == .symbolicLink else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current.path, &buffer, buffer.count - 1)
            guard length >= 0 else { throw AtomicFile.error(url, "cannot read the symbolic link") }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target)
        }
        throw AtomicFile.WriteError(file: url, reason: "too many levels of symbolic links")
    }

    /// True when `first` and `second` name the same existing file or directory (same device and inode).
    public static func isSameFile(_ first: URL, _ second: URL) -> Bool {
        var a = stat(), b = stat()
        guard stat(first.path, &a) == 0, stat(second.path, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}

extension ExistingPath {
    /// Why the file at `path` could not be read, in plain words for an error message: the system's
    /// reason ("no such file or directory", "permission denied"), or "a directory, not a file".
    ///
    ///     throw InputError("\(path): cannot read the file (\(ExistingPath.unreadableReason(path)))")
    public static func unreadableReason(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)).lowercased() }
        if info.st_mode & S_IFMT == S_IFDIR { return "a directory, not a file" }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return String(cString: strerror(errno)).lowercased() }
        close(descriptor)
        return "an input/output error"
    }
}
