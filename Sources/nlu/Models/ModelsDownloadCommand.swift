import ArgumentParser
import Foundation
import NLUKit

/// `nlu models download ID`: fetches a model from the Hugging Face Hub into the Hugging Face cache.
struct ModelsDownloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a model from the Hugging Face Hub into the Hugging Face cache.",
        discussion: """
        Files go where Python's huggingface_hub puts them ($HF_HUB_CACHE, else $HF_HOME/hub, else \
        ~/.cache/huggingface/hub: blobs/, snapshots/COMMIT/, refs/REVISION), so --model ID and Python \
        both find them. HF_ENDPOINT selects another server (a mirror), HF_TOKEN (or the token file \
        huggingface-cli login writes) is sent for private and gated models. An interrupted download \
        resumes where it stopped when the command is run again; a file enters the cache only complete \
        and checked. Prints the snapshot directory on stdout; progress goes to stderr. With \
        HF_HUB_OFFLINE=1 (or TRANSFORMERS_OFFLINE=1), as in huggingface_hub, nothing goes over the \
        network: a revision already in the cache is reported as it is, any other fails (exit 1); the same \
        answer comes when the Hub cannot be reached. A request that makes no progress (less than 1 KiB) \
        for --stall-timeout seconds fails, as does a download still running at --deadline; the part \
        received is kept for the next run.
        """)

    @Argument(help: "The model's Hub id, ORG/NAME (optionally ORG/NAME@REVISION).")
    var id: String

    @Option(help: "A branch, tag or commit hash (default: main).")
    var revision: String?

    @Option(name: .customLong("include"), help: ArgumentHelp(
        "Download only the files matching this pattern (repeatable; * also crosses /). Default: *.json *.txt *.safetensors, what NLUKit reads.",
        valueName: "GLOB"))
    var patterns: [String] = []

    @Flag(help: "Download every file of the repository (ONNX, PyTorch and TensorFlow copies too).")
    var all = false

    @Option(help: ArgumentHelp("""
        Fail a request that receives less than 1 KiB in this many seconds (default: $HF_HUB_DOWNLOAD_TIMEOUT, else 60).
        """, valueName: "seconds"))
    var stallTimeout: String?

    @Option(help: ArgumentHelp("Fail the download if it is not over after this many seconds (default: no deadline).", valueName: "seconds"))
    var deadline: String?

    @Flag(help: "Print {\"id\", \"commit\", \"directory\", \"files\", \"bytesReceived\", \"offline\"} on stdout instead of the directory.")
    var json = false

    private struct Summary: Encodable {
        var id: String
        var commit: String
        var directory: String
        var files: [String]
        var bytesReceived: Int64
        var offline: Bool
    }

    func validate() throws {
        guard let model = HubModelID(id) else {
            // ORG/NAME@/abs/path: the name is fine, the revision is not; say so as --revision does.
            if let at = id.firstIndex(of: "@"), HubModelID(String(id[..<at])) != nil {
                throw ValidationError(HubError.invalidRevision(String(id[id.index(after: at)...])).description)
            }
            throw ValidationError("'\(id)' is not a Hub model id (ORG/NAME, letters, digits, - _ .)")
        }
        if let revision {
            guard model.revision == nil else { throw ValidationError("give the revision once: in the id (@REV) or with --revision") }
            guard HubModelID.isValidRevision(revision) else { throw ValidationError(HubError.invalidRevision(revision).description) }
        }
        guard patterns.isEmpty || !all else { throw ValidationError("give --include or --all, not both") }
        guard !patterns.contains(where: \.isEmpty) else { throw ValidationError("--include is empty; give a pattern such as '*.json'") }
        _ = try timeLimits()
    }

    /// --stall-timeout and --deadline in seconds, checked by the library's rule.
    private func timeLimits() throws -> (stall: Double?, deadline: Double?) {
        do {
            return (try stallTimeout.map { try HubConfiguration.timeLimit($0, setting: "--stall-timeout") },
                    try deadline.map { try HubConfiguration.timeLimit($0, setting: "--deadline") })
        } catch let error as HubError {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        guard var model = HubModelID(id) else { throw ValidationError("'\(id)' is not a Hub model id") }
        if let revision { model.revision = revision }
        let filter = all ? HubFileFilter.all : patterns.isEmpty ? HubFileFilter.nlukit : HubFileFilter(patterns: patterns)
        var configuration = try HubConfiguration()
        let limits = try timeLimits()
        if let stall = limits.stall { configuration.stallTimeout = stall }
        configuration.deadline = limits.deadline
        let downloader = HubDownloader(configuration: configuration)
        let offlineSetting = configuration.offlineSetting
        let line = SharedProgressLine()
        let asJSON = json
        let identifier = model
        try BlockingTask.run {
            let result = try await downloader.download(identifier, filter: filter) { line.update($0) }
            line.finish()
            if let reason = result.unreachableReason {
                Console.log("\(identifier): in the cache at commit \(result.commit), \(result.files.count) file(s), used as it is (the Hub was not asked for changes: \(reason))")
            } else if result.offline {
                Console.log("\(identifier): in the cache at commit \(result.commit), \(result.files.count) file(s) (\(offlineSetting): the Hub was not asked for changes)")
            }
            if asJSON {
                Console.print(try Console.json(Summary(id: identifier.repository, commit: result.commit, directory: result.snapshot.path,
                                                       files: result.files, bytesReceived: result.bytesReceived, offline: result.offline)))
            } else {
                Console.print(result.snapshot.path)
            }
        }
    }
}

/// The progress line, fed from the download's callbacks (one at a time, from any thread).
private final class SharedProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let line = ProgressLine()

    func update(_ progress: HubDownloadProgress) {
        // Small files show one line when done; a log would otherwise get ten lines per config file.
        guard progress.totalBytes >= 1 << 20 || progress.bytes == progress.totalBytes else { return }
        lock.lock()
        defer { lock.unlock() }
        let label = "[\(progress.fileNumber)/\(progress.fileCount)] \(progress.file) (kB) "
        line.update(label, done: Int(progress.bytes / 1024), of: Int(progress.totalBytes / 1024))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        line.finish()
    }
}
