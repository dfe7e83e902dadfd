import Foundation

/// Where a download is: reported while the bytes of each file arrive and once per file that was
/// already in the cache.
public struct HubDownloadProgress: Sendable, Equatable {
    /// The file's path in the repository.
    public var file: String
    /// 1-based position of the file among those downloaded, and their count.
    public var fileNumber: Int
    public var fileCount: Int
    /// Bytes of this file on disk so far (a resumed download starts at what was kept) and its size.
    public var bytes: Int64
    public var totalBytes: Int64
}

/// What a download did.
public struct HubDownloadResult: Sendable, Equatable {
    /// `snapshots/COMMIT`: the directory `--model ID` now resolves to.
    public var snapshot: URL
    /// The commit the revision pointed to.
    public var commit: String
    /// The files of the snapshot that were selected, in the repository's order.
    public var files: [String]
    /// Bytes received over the network in this run (0 when everything was cached).
    public var bytesReceived: Int64
    /// Answered from the cache alone, in offline mode or because the Hub could not be reached: the Hub was
    /// not asked whether the revision has moved.
    public var offline = false
    /// Why the Hub could not be reached when the answer came from the cache for that reason (not in offline mode).
    public var unreachableReason: String?
}
