#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension AtomicFile {
    /// Creates the file at `url` with what `body` writes and `permissions`, only if nothing is there: a file
    /// that is already there is never replaced, and a reader never sees it half written. Returns false, writing
    /// nothing, when a file appeared at `url` first (another process created it: use that one).
    ///
    /// For files whose first version must win, such as a secret key made on first use: two processes starting
    /// at once must not each write their own key and leave the first one's data unreadable. The new file is
    /// written and flushed under a temporary name, then linked to `url`, which fails when `url` exists (a
    /// rename would replace it).
    ///
    ///     let created = try AtomicFile.createNew(at: keyURL, permissions: 0o600) { try $0.write(secret) }
    /// - Throws: ``WriteError`` naming `url` when the folder is missing or the file cannot be written.
    @discardableResult
    public static func createNew(at url: URL, permissions: mode_t, _ body: (Output) throws -> Void) throws -> Bool {
        removeAbandonedTemporaries(beside: url)
        let temporary = temporaryURL(beside: url)
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            let folder = url.deletingLastPathComponent().path
            switch errno {
            case ENOENT: throw WriteError(file: url, reason: "the folder \(folder) does not exist")
            case EACCES, EROFS: throw error(url, "cannot create a file in the folder \(folder)")
            default: throw error(url, "cannot create the temporary file \(temporary.lastPathComponent)")
            }
        }
        // The temporary goes in every case: after a successful link the file lives on under `url`.
        defer { unlink(temporary.path) }
        do {
            _ = fchmod(descriptor, permissions)  // the umask may have narrowed it; never widened beyond `permissions`
            try body(Output(descriptor: descriptor, url: url))
            guard fsync(descriptor) == 0 else { throw error(url, "cannot flush") }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw error(url, "cannot close") }
        guard link(temporary.path, url.path) == 0 else {
            if errno == EEXIST { return false }
            throw error(url, "cannot move the new file into place")
        }
        return true
    }
}
