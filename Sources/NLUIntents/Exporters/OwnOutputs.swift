import Foundation
import NLUCore
import NLUInputOutput

/// How `nlu intents import` and `nlu intents export` recognise a file they wrote before, the only
/// kind of existing file they replace without `--force` (``OutputFile``). A dataset is recognised
/// by its `format` field; an export by the mark the exporter puts in it (the Rasa and `.lu` header
/// comments, CLU's `metadata.description`, the Dialogflow CX agent's `displayName`), not by parsing
/// as its format: the platform's own export, often the user's only copy, parses just as well.
public enum OwnOutputs {
    /// An NLUKit dataset JSON, what `intents import -o` (and `--test-output`) may replace.
    public static let dataset = OutputFile(kind: "an NLUKit dataset (JSON)") { isDataset(at: $0) }

    /// An export in `format` written by `nlu intents export`, what `intents export -o` may replace.
    public static func export(_ format: ExportFormat) -> OutputFile {
        OutputFile(kind: "a \(format.rawValue) export") { isExport(at: $0, format: format) }
    }

    /// The first line of Rasa YAML exports.
    static let rasaMark = "# Written by nlu intents export\n"
    /// The first line of `.lu` exports.
    static let luMark = "> Written by nlu intents export\n"
    /// CLU exports' `metadata.description`.
    static let cluMark = "Exported by NLUKit"
    /// Dialogflow CX exports' `agent.json` `displayName`.
    static let dialogflowCXMark = "nlukit-export"

    /// Whether the file at `url` is an NLUKit dataset: a JSON object whose `format` is
    /// `nlukit-intents` (hand-written datasets that say so too).
    static func isDataset(at url: URL) -> Bool {
        guard startsWithJSONObject(url), let data = try? InputFile.read(url),
              let object = try? JSONInput.object(from: data, file: url.path) as? [String: Any] else { return false }
        return object["format"] as? String == IntentDataset.formatName
    }

    /// Whether the file at `url` carries the mark `nlu intents export --format format` writes.
    static func isExport(at url: URL, format: ExportFormat) -> Bool {
        switch format {
        case .rasa: return starts(url, with: rasaMark)
        case .lu: return starts(url, with: luMark)
        case .clu:
            guard startsWithJSONObject(url), let data = try? InputFile.read(url),
                  let object = try? JSONInput.object(from: data, file: url.path) as? [String: Any],
                  let metadata = object["metadata"] as? [String: Any] else { return false }
            return CLUImporter.isProject(object) && metadata["description"] as? String == cluMark
        case .dialogflowCX:
            guard let source = try? ImportSource(url: url), source.kind == .zip,
                  let data = try? source.data(at: "agent.json"),
                  let agent = try? JSONInput.object(from: data, file: url.path) as? [String: Any] else { return false }
            return agent["displayName"] as? String == dialogflowCXMark
        }
    }

    /// Whether the file begins with `mark` (read no further than that).
    private static func starts(_ url: URL, with mark: String) -> Bool {
        OutputFile.prefix(of: url, count: mark.utf8.count) == Data(mark.utf8)
    }

    /// Whether the file's first character (after a byte-order mark and white space) is `{`: a quick
    /// no for a large file of another kind, before reading all of it.
    private static func startsWithJSONObject(_ url: URL) -> Bool {
        let head = OutputFile.prefix(of: url, count: 4096)
        let bytes = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }
}
