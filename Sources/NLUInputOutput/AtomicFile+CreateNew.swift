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
        try writeTemporary(beside: url, for: url, mode: permissions, body) { temporary in
            guard link(temporary.path, url.path) == 0 else {
                if errno == EEXIST { return false }
                throw error(url, "cannot move the new file into place")
            }
            return true
        }
    }
}
