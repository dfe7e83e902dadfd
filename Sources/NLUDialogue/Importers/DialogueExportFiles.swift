import Foundation

/// The files of a platform export that is a folder or a zip archive (a Lex V2 bot, a Dialogflow agent),
/// addressed by their relative, `/`-separated paths. The dialogue layer does not open folders and zips
/// itself: `NLUPipelines` supplies this from the intent importers' export reader (the same size limits,
/// the same refusal of links that leave the folder), so a dialogue and its intents are read from one
/// export the same way.
///
///     let files = try DialogueExport.files(at: URL(fileURLWithPath: "PizzaBot.zip"))   // NLUPipelines
///     let (model, warnings) = try DialogueImporter.read(files)
public protocol DialogueExportFiles {
    /// How errors name the export (its path).
    var name: String { get }
    /// The relative paths of its regular files, sorted.
    var paths: [String] { get }
    /// The bytes of the file at `path` (one of ``paths``).
    func data(at path: String) throws -> Data
    /// How errors name the file at `path`.
    func displayName(_ path: String) -> String
}
