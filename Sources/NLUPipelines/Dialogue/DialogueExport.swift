import Foundation
import NLUDialogue
import NLUIntents

extension ExportFiles: DialogueExportFiles {}

/// Platform dialogues that come as a folder or a zip (a Lex V2 bot, a Dialogflow ES agent), opened with
/// the intent importers' export reader and handed to ``DialogueImporter``.
///
///     if let imported = try DialogueExport.read(URL(fileURLWithPath: "PizzaBot.zip")) { print(imported.warnings) }
public enum DialogueExport {
    /// The files of the folder or zip at `url`.
    /// - Throws: `IntentDatasetError` when it is missing or not a readable zip.
    public static func files(at url: URL) throws -> ExportFiles {
        try ExportFiles(url: url)
    }

    /// The dialogue of the folder or zip at `url`; `nil` when `url` is one plain file (a JSON dialogue,
    /// workspace or interaction model: ``DialogueImporter/read(_:file:)`` reads its bytes).
    /// - Throws: `IntentDatasetError` (unreadable export) or `JSONFileError` (file and field at fault).
    public static func read(_ url: URL) throws -> (model: DialogueModel, warnings: [String])? {
        let files = try files(at: url)
        guard files.isFolderOrZip else { return nil }
        return try DialogueImporter.read(files)
    }
}
