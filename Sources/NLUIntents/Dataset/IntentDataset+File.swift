import Foundation
import NLUCore
import NLUInputOutput

extension IntentDataset {
    /// Reads a dataset in NLUKit's JSON form and validates it. A file that is not valid UTF-8 is
    /// read as Latin-1 (Windows-1252) with a warning in `warnings`, as the importers report it
    /// (`intents.json: not valid UTF-8; read as Latin-1 (Windows-1252)`): show the warnings, since
    /// a file saved in another encoding may hold characters that were meant otherwise.
    ///
    ///     var warnings: [String] = []
    ///     let dataset = try IntentDataset.load(from: URL(fileURLWithPath: "intents.json"), warnings: &warnings)
    ///     warnings.forEach { print("warning: \($0)") }
    /// - Throws: ``IntentDatasetError`` naming the file and the field or line at fault.
    public static func load(from url: URL, warnings: inout [String]) throws -> IntentDataset {
        let file = url.path
        let data: Data
        do { data = try InputFile.read(url) } catch let error as InputReadError {
            throw IntentDatasetError.unreadable(file: file, reason: error.reason)
        }
        return try decode(TextDecoding.utf8Data(from: data, file: file, warnings: &warnings), file: file)
    }

    /// Reads a dataset in NLUKit's JSON form and validates it, without telling that a file which is
    /// not UTF-8 was read as Latin-1: ``load(from:warnings:)`` tells.
    /// - Throws: ``IntentDatasetError`` naming the file and the field or line at fault.
    @available(*, deprecated, message: "use load(from:warnings:): a file that is not UTF-8 is read as Latin-1, and only that one says so")
    public static func load(from url: URL) throws -> IntentDataset {
        var warnings: [String] = []
        return try load(from: url, warnings: &warnings)
    }

    /// Decodes NLUKit's JSON form from `data`; `file` names the source in errors.
    static func decode(_ data: Data, file: String) throws -> IntentDataset {
        // Check the version first, so a newer file fails on its version and not on a field it added.
        if let object = try JSONInput.object(from: data, file: file) as? [String: Any],
           let version = object["version"] as? Int, version > currentVersion {
            throw IntentDatasetError.newerVersion(file: file, found: version, supported: currentVersion)
        }
        let dataset = try JSONInput.decode(IntentDataset.self, from: data, file: file)
        try dataset.validate(file: file)
        return dataset
    }

    /// The dataset as pretty-printed JSON (keys sorted, so files diff well).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the dataset atomically (a temporary file renamed over `url`), so a reader never sees
    /// a half-written file and a failed write leaves the old one intact.
    ///
    ///     try dataset.save(to: URL(fileURLWithPath: "intents.json"))
    public func save(to url: URL) throws {
        let data = try jsonData()
        try AtomicFile.write(to: url) { try $0.write(data) }
    }
}
