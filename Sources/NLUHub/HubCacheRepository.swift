#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUCore
import NLUInputOutput

/// One repository's folder in the Hugging Face cache, laid out exactly as `huggingface_hub` writes it,
/// so Python and `huggingface-cli` find what NLUKit downloaded and the other way round:
///
///     models--ORG--NAME/
///       blobs/ETAG                       the file's bytes, named by the Hub's ETag (SHA-256 for LFS files)
///       blobs/ETAG.incomplete            a download in progress (resumed from its length)
///       snapshots/COMMIT/PATH -> ../../blobs/ETAG    relative links, one tree per commit
///       refs/REVISION                    the commit hash a branch or tag pointed to (no newline)
///     .locks/models--ORG--NAME/ETAG.lock             the lock Python's filelock also takes
struct HubCacheRepository {
    let cache: URL
    let folderName: String

    var folder: URL { cache.appendingPathComponent(folderName) }

    func blob(etag: String) -> URL { folder.appendingPathComponent("blobs").appendingPathComponent(etag) }

    func incompleteBlob(etag: String) -> URL { folder.appendingPathComponent("blobs").appendingPathComponent(etag + ".incomplete") }

    func snapshot(commit: String) -> URL { folder.appendingPathComponent("snapshots").appendingPathComponent(commit) }

    func pointer(commit: String, file: String) -> URL { snapshot(commit: commit).appendingPathComponent(file) }

    func lock(etag: String) -> URL {
        cache.appendingPathComponent(".locks").appendingPathComponent(folderName).appendingPathComponent(etag + ".lock")
    }

    /// Creates `directory` and its parents.
    func makeDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw HubError.cacheWrite(path: directory.path, reason: "cannot create the directory")
        }
    }

    /// Bytes free for us on the disk holding the repository's `blobs/`, or nil when the system does not say.
    func availableBytes() -> Int64? {
        var status = statvfs()
        guard statvfs(folder.appendingPathComponent("blobs").path, &status) == 0 else { return nil }
        let (bytes, overflow) = Int64(clamping: status.f_bavail).multipliedReportingOverflow(by: Int64(clamping: status.f_frsize))
        return overflow ? Int64.max : bytes
    }

    /// Points `snapshots/COMMIT/FILE` at the blob with a relative link, as huggingface_hub does, so the
    /// cache can be moved. The link is made beside its place and renamed over it: never a missing pointer.
    func link(commit: String, file: String, etag: String) throws {
        let pointer = pointer(commit: commit, file: file)
        try makeDirectory(pointer.deletingLastPathComponent())
        let depth = file.split(separator: "/").count + 1   // snapshots/COMMIT/a/b -> ../../../blobs
        let target = String(repeating: "../", count: depth) + "blobs/" + etag
        let staging = pointer.deletingLastPathComponent().appendingPathComponent(".\(pointer.lastPathComponent).link-\(getpid())")
        unlink(staging.path)
        guard symlink(target, staging.path) == 0 else {
            throw HubError.cacheWrite(path: pointer.path, reason: String(cString: strerror(errno)))
        }
        guard rename(staging.path, pointer.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(staging.path)
            throw HubError.cacheWrite(path: pointer.path, reason: reason)
        }
    }

    /// The commit `revision` stands for in the cache, as huggingface_hub reads it offline: the revision itself when
    /// it is a commit hash (40 lowercase hex digits), else what `refs/REVISION` holds; nil when that commit has no
    /// snapshot folder.
    func commit(revision: String) -> String? {
        let isHash = LowercaseHex.matches(revision, count: 40)
        let reference = folder.appendingPathComponent("refs").appendingPathComponent(revision)
        guard let commit = isHash ? revision
                : HubReferenceFile.commit(at: reference),
              HubRepositoryInfo.isSafeRelativePath(commit), !commit.contains("/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: snapshot(commit: commit).path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return commit
    }

    /// The files of `snapshots/COMMIT` (relative paths, sorted) whose link leads to a file: a dangling one is missing.
    func files(commit: String) -> [String] {
        let root = snapshot(commit: commit).resolvingSymlinksInPath()
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// Records that `revision` is `commit` (nothing to record when the revision is the commit itself).
    func writeReference(revision: String, commit: String) throws {
        guard revision != commit else { return }
        let reference = folder.appendingPathComponent("refs").appendingPathComponent(revision)
        if HubReferenceFile.commit(at: reference) == commit { return }
        try makeDirectory(reference.deletingLastPathComponent())
        do {
            try AtomicFile.write(to: reference) { try $0.write(Data(commit.utf8)) }
        } catch {
            throw HubError.cacheWrite(path: reference.path, reason: "\(error)")
        }
    }

    /// Runs `body` holding the blob's lock: two downloads of the same file (ours or Python's) never
    /// write one `.incomplete` at the same time.
    func withLock<T>(etag: String, _ body: () async throws -> T) async throws -> T {
        let lockURL = lock(etag: etag)
        try makeDirectory(lockURL.deletingLastPathComponent())
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw HubError.cacheWrite(path: lockURL.path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }   // closing releases the lock
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw HubError.cacheWrite(path: lockURL.path, reason: "cannot lock: " + String(cString: strerror(errno)))
        }
        return try await body()
    }
}
