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

    /// A dialogue that is a project rather than one JSON file: a Rasa project (a folder with `domain.yml`, or a
    /// `.yml` domain alone), a Lex V2 bot or a Dialogflow ES agent (a folder or a zip). `nil` for an existing
    /// plain file (``DialogueImporter/read(_:file:)`` reads its bytes) or a path that does not exist.
    /// What `nlu dialogue` and `nlu serve --dialogue` both accept.
    /// - Throws: `RasaDialogueError`, `IntentDatasetError` or `JSONFileError`, naming the file at fault.
    public static func readProject(_ url: URL) throws -> (model: DialogueModel, warnings: [String])? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        let isRasa = isDirectory.boolValue ? FileManager.default.fileExists(atPath: url.appendingPathComponent("domain.yml").path)
            : ["yml", "yaml"].contains(url.pathExtension.lowercased())
        if isRasa { return try RasaDialogueImporter.read(project: url) }
        return try read(url)
    }
}
