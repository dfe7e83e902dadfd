import Foundation

extension OutputPath {
    /// Refuses, before any work, an output whose folder does not exist or cannot be written: every
    /// output is written as a temporary file in that folder and renamed, so training for an hour and
    /// then failing to save (a read-only mount, a typo in the folder) loses the hour.
    /// The check creates and removes an empty probe file there (`access(2)` does not see every
    /// refusal: immutable folders, some network file systems).
    /// - Throws: ``OutputPath/Error`` naming the output and the folder.
    ///
    /// A pipe, terminal or device already there (`/dev/stdout`, `/dev/fd/3` from a process substitution)
    /// is written in place, not replaced, so its folder (`/dev`, `/proc/self/fd`) need not be writable.
    public static func checkFolderWritable(_ output: URL) throws {
        var status = stat()
        if stat(output.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR { return }
        let folder = output.standardizedFileURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw Error(output: output.path, reason: "the folder \(folder.path) does not exist")
        }
        guard isDirectory.boolValue else { throw Error(output: output.path, reason: "\(folder.path) is not a folder") }
        let probe = folder.appendingPathComponent(".nlu-write-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw Error(output: output.path, reason: "cannot write in the folder \(folder.path) (\(String(cString: strerror(errno))))")
        }
        close(descriptor)
        unlink(probe)
    }
}
