#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What a command that writes one file may find at its output path and replace: nothing, an empty
/// file, or a file it recognises as its own earlier output of the same kind (the same command run
/// again), and anything else only when the user forces it. Checked before any work, so a file the
/// program did not write is never lost (`echo notes > notes.txt; nlu intents import x.json -o notes.txt`
/// fails instead of replacing the notes).
///
///     let datasets = OutputFile(kind: "an NLUKit dataset (JSON)") { IntentDataset.isDatasetFile(at: $0) }
///     try datasets.checkReplaceable(URL(fileURLWithPath: "notes.json"), force: false, remedy: "or pass --force")
public struct OutputFile: Sendable {
    /// What the command writes, as messages name it ("an NLUKit dataset (JSON)").
    public var kind: String
    /// Whether the existing regular file at a path is an earlier output of this kind.
    public var recognizes: @Sendable (URL) -> Bool

    /// Creates the policy for outputs of `kind`, recognised by `recognizes`.
    public init(kind: String, recognizes: @escaping @Sendable (URL) -> Bool) {
        self.kind = kind
        self.recognizes = recognizes
    }

    /// Checks that the command may write `url`: nothing is there (or a dangling link, whose target
    /// is then created), an empty file, a FIFO or device (written in place, nothing replaced), a file
    /// this kind ``recognizes`` (links followed), or any regular file when `force` is true.
    /// - Parameters:
    ///   - role: how the path was chosen, when the user did not type it (`"the default test-split path"`).
    ///   - remedy: how to proceed, for the message (`"choose another path, or pass --force to replace it"`).
    /// - Throws: ``OutputPath/Error`` naming the path, what it holds and the remedy.
    public func checkReplaceable(_ url: URL, force: Bool, role: String? = nil, remedy: String) throws {
        let named = url.path + (role.map { " (\($0))" } ?? "")
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }  // nothing there (or a dangling link)
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw OutputPath.Error(output: named, reason: "is a directory; give a file path")
        case S_IFREG:
            if info.st_size == 0 || force || recognizes(url) { return }
            throw OutputPath.Error(
                output: named,
                reason: "holds a file that is not \(kind) written by nlu; refusing to replace it (\(remedy))")
        default:
            return
        }
    }
}
