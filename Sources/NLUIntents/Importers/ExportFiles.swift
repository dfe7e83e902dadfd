import Foundation

/// The files of an export folder or zip, for readers outside this module: the dialogue importers read a
/// Lex V2 bot or a Dialogflow agent through it (adapted in `NLUPipelines`), with ``ImportSource``'s
/// limits on zips and its refusal of links that leave the folder, so both layers read an export alike.
///
///     let files = try ExportFiles(url: URL(fileURLWithPath: "PizzaBot.zip"))
///     for path in files.paths where path.hasSuffix("/Intent.json") { _ = try files.data(at: path) }
public struct ExportFiles {
    private let source: ImportSource

    /// Opens the folder or zip at `url` (a single file is one file, named by its name).
    /// - Throws: ``IntentDatasetError`` when it is missing or not a readable zip.
    public init(url: URL) throws {
        source = try ImportSource(url: url)
    }

    /// Whether `url` was a folder or a zip archive (not one plain file).
    public var isFolderOrZip: Bool { source.kind != .file }
    /// The export's path, as errors name it.
    public var name: String { source.name }
    /// The relative, `/`-separated paths of its regular files, sorted.
    public var paths: [String] { source.paths }
    /// The bytes of the file at `path`.
    /// - Throws: ``IntentDatasetError`` naming the file.
    public func data(at path: String) throws -> Data { try source.data(at: path) }
    /// How errors name the file at `path`.
    public func displayName(_ path: String) -> String { source.displayName(path) }
}
