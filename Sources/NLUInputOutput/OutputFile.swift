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

extension OutputFile {
    /// The first `count` bytes of the file at `url` (fewer when it is shorter; empty when it cannot
    /// be read): recognisers look at a file's head, never read a large file of another kind whole.
    public static func prefix(of url: URL, count: Int) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)) ?? Data()
    }

    /// The first line of the file at `url` without its line ending, or nil when no line ends within
    /// `limit` bytes and the file goes on (a line that long is not one a recogniser expects).
    public static func firstLine(of url: URL, limit: Int = 1 << 20) -> Data? {
        let head = prefix(of: url, count: limit + 1)
        guard let end = head.firstIndex(of: 0x0A) else { return head.count <= limit ? head : nil }
        let line = head[head.startIndex..<end]
        return Data(line.last == 0x0D ? line.dropLast() : line)
    }

    /// The first line of the file at `url` as a JSON object, or nil when it is not one.
    public static func firstJSONObject(of url: URL) -> [String: Any]? {
        guard let line = firstLine(of: url), !line.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
    }
}
