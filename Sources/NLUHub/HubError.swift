import Foundation

/// Why a download from the Hub failed. Every case names the model, the file or the server, and says
/// what to do; nothing half-written is left in the cache when one is thrown (a partial `.incomplete`
/// blob stays, so the next run resumes it).
public enum HubError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// `HF_ENDPOINT` is not an http(s) URL.
    case invalidEndpoint(String)
    /// The Hub has no such model (404), or hides it (401/403 without a token).
    case noSuchModel(id: String, tokenSent: Bool)
    /// The model is gated or private and the token does not grant access.
    case accessDenied(id: String, tokenSent: Bool)
    /// The model exists but not the revision (branch, tag or commit).
    case noSuchRevision(id: String, revision: String)
    /// A file the repository lists could not be found.
    case noSuchFile(id: String, file: String)
    /// The server could not be reached (network down, DNS, refused connection, timeout).
    case unreachable(endpoint: String, reason: String)
    /// Another HTTP status than expected.
    case httpStatus(url: String, status: Int)
    /// The server's answer is not what the Hub sends (missing header, bad JSON, unsafe file name).
    case invalidResponse(url: String, reason: String)
    /// The bytes received do not match what the server announced (size or SHA-256).
    case corruptDownload(file: String, reason: String)
    /// The download was cut off before its end; the bytes so far are kept for a resume.
    case interrupted(file: String, received: Int64, expected: Int64, reason: String)
    /// `host` sent less than 1 KiB of `file` (or of the answer about it) in `seconds`, the stall timeout;
    /// the `received` bytes are kept for a resume.
    case stalled(file: String, host: String, seconds: Double, received: Int64)
    /// The download's deadline, `seconds` after it started, passed while `file` came from `host`;
    /// the `received` bytes are kept for a resume.
    case deadlineExceeded(file: String, host: String, seconds: Double, received: Int64)
    /// The server declares `file` as `size` bytes, more than the `available` bytes free where the cache is.
    case tooLarge(file: String, size: Int64, available: Int64, cache: String)
    /// A revision (`@REV` or `--revision`) that cannot name a branch, tag or commit: empty, absolute, with `..`.
    case invalidRevision(String)
    /// A time limit (`setting`: an option or a variable) that is not a number of seconds in range.
    case invalidTimeLimit(setting: String, value: String)
    /// The cache could not be written.
    case cacheWrite(path: String, reason: String)
    /// Offline mode is on and the cache has no snapshot of the revision.
    case notCachedOffline(id: String, revision: String, cache: String, setting: String)
    /// Offline mode is on and the revision's snapshot in the cache has no file the download asks for.
    case noCachedFileOffline(id: String, commit: String, patterns: [String], setting: String)

    public var description: String {
        switch self {
        case let .invalidEndpoint(text):
            return "HF_ENDPOINT '\(text)' is not an http(s) URL (e.g. https://huggingface.co)"
        case let .noSuchModel(id, tokenSent):
            return "\(id): no such model on the Hub"
                + (tokenSent ? "" : " (or it is private or gated: set HF_TOKEN to an access token that can read it)")
        case let .accessDenied(id, tokenSent):
            return tokenSent
                ? "\(id): access denied with the token in HF_TOKEN (a gated model: accept its terms on the Hub; a private one: use a token that can read it)"
                : "\(id): access denied; the model is private or gated: set HF_TOKEN to an access token that can read it"
        case let .noSuchRevision(id, revision):
            return "\(id): no revision '\(revision)' on the Hub (a branch, tag or commit hash)"
        case let .noSuchFile(id, file):
            return "\(id): the Hub lists \(file) but does not serve it"
        case let .unreachable(endpoint, reason):
            return "cannot reach \(endpoint): \(reason) (is the network up? HF_ENDPOINT selects another server)"
        case let .httpStatus(url, status):
            return "\(url): the server answered HTTP \(status)"
        case let .invalidResponse(url, reason):
            return "\(url): not a Hugging Face Hub answer: \(reason)"
        case let .corruptDownload(file, reason):
            return "\(file): the download is corrupt (\(reason)); nothing was stored, run the command again"
        case let .interrupted(file, received, expected, reason):
            return "\(file): the download stopped at \(received) of \(expected) bytes (\(reason)); "
                + "run the same command again to resume"
        case let .stalled(file, host, seconds, received):
            return "\(file): no progress from \(host) for \(TransferWatchdog.describe(seconds)) (less than \(TransferWatchdog.progressUnit) bytes; "
                + "the stall timeout, set by --stall-timeout or HF_HUB_DOWNLOAD_TIMEOUT); "
                + (received > 0 ? "the \(received) bytes received are kept: run the same command again to resume" : "run the same command again to retry")
        case let .deadlineExceeded(file, host, seconds, received):
            return "\(file): the download's \(TransferWatchdog.describe(seconds)) deadline (--deadline) passed while receiving it from \(host); "
                + (received > 0 ? "the \(received) bytes received are kept: run the same command again to resume, " : "run the same command again ")
                + "with a longer --deadline or none"
        case let .tooLarge(file, size, available, cache):
            return "\(file): the server declares \(size) bytes, more than the \(available) bytes free on the disk of the "
                + "Hugging Face cache (\(cache)); nothing was downloaded"
        case let .invalidRevision(revision):
            return "revision '\(revision.prefix(200))' is not a branch, tag or commit hash "
                + "(it names a file under refs/: not empty or absolute, no empty, .-led or .. part, no space, control character or \\ ~ ^ : ? * [)"
        case let .invalidTimeLimit(setting, value):
            return "\(setting) '\(value.prefix(80))' is not a number of seconds above 0 and at most \(Int(HubConfiguration.longestTimeLimit))"
        case let .cacheWrite(path, reason):
            return "\(path): cannot write to the Hugging Face cache: \(reason)"
        case let .notCachedOffline(id, revision, cache, setting):
            let name = setting.prefix { $0 != "=" }
            return "\(id)@\(revision) is not in the Hugging Face cache (\(cache)), and \(setting) keeps nlu off the network "
                + "(huggingface_hub's offline mode): unset \(name) or set it to 0 to download it"
        case let .noCachedFileOffline(id, commit, patterns, setting):
            let name = setting.prefix { $0 != "=" }
            return "\(id): the cached snapshot \(commit) has no file matching \(patterns.joined(separator: " ")), and \(setting) keeps nlu "
                + "off the network (huggingface_hub's offline mode): unset \(name) or set it to 0 to download them"
        }
    }

    public var errorDescription: String? { description }

    /// A transfer the same call may resume at once: cut off, or stalled (the part is kept).
    var isResumable: Bool {
        switch self {
        case .interrupted, .stalled: return true
        default: return false
        }
    }

    /// The Hub could not be asked at all (network down, stalled): what falls back to a cached snapshot.
    var isUnreachable: Bool {
        switch self {
        case .unreachable, .stalled: return true
        default: return false
        }
    }
}
