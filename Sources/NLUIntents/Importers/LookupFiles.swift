import Foundation
import NLUCore
import NLUInputOutput

/// Rasa 1.x lookup tables kept in text files (`## lookup:city` followed by `data/lookups/city.txt`,
/// or `"elements": "data/lookups/city.txt"` in JSON): one value per line. The path is relative to
/// the project root, which Rasa takes from its working directory, so it is looked up beside the
/// referring file and then in each folder above it, up to the export's folder (``ExportFolder``):
/// a path that leads outside it (absolute, `..`, a symbolic link) is refused, never read.
enum LookupFiles {
    /// The most values one lookup file may hold.
    static let maxValues = 1_000_000

    /// Whether `line` reads as a path to a lookup file rather than a value.
    static func isReference(_ line: String) -> Bool {
        let lower = line.lowercased()
        return !line.hasPrefix("-") && (lower.hasSuffix(".txt") || lower.hasSuffix(".csv") || lower.hasSuffix(".lookup"))
    }

    /// The values of the lookup file `reference` named in `file` (at `place`: the file and its line or
    /// field, as warnings and errors name it), or `nil` with a warning when it is missing, unreadable or not UTF-8.
    /// - Throws: ``IntentDatasetError/outsideExport(file:path:resolved:folder:)`` when `reference`
    ///   leads outside `folder`.
    static func values(_ reference: String, from file: String, at place: String, in folder: ExportFolder,
                       warnings: inout [String]) throws -> [String]? {
        guard let url = try locate(reference, from: file, in: folder, place: place) else {
            warnings.append("\(place): lookup file '\(reference)' not found in \(folder.path) (named from the file's folder or one above it); lookup skipped")
            return nil
        }
        let data: Data
        do { data = try InputFile.read(url) } catch let error as InputReadError {
            warnings.append("\(place): lookup file \(url.path) cannot be read (\(error.reason)); lookup skipped")
            return nil
        }
        guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
            warnings.append("\(place): lookup file \(url.path) cannot be read as UTF-8; lookup skipped")
            return nil
        }
        let values = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard values.count <= maxValues else {
            warnings.append("\(place): lookup file \(url.path) has more than \(maxValues) values; lookup skipped")
            return nil
        }
        return values
    }

    /// The lookup file inside `folder` that `reference` names: beside `file`, else in the nearest
    /// folder above it that has it (Rasa's project root may be above the folder imported, as in
    /// `data/lookups/city.txt` named from `data/nlu.md`; only a file inside `folder` is taken); `nil` when none has.
    /// - Throws: ``IntentDatasetError/outsideExport(file:path:resolved:folder:)`` when the name leads
    ///   outside `folder` from the file's own folder or one inside `folder`, or through a link.
    private static func locate(_ reference: String, from file: String, in folder: ExportFolder, place: String) throws -> URL? {
        let resolvedFile = ExportFolder.realPath(file) ?? URL(fileURLWithPath: file).standardizedFileURL.path
        var base = URL(fileURLWithPath: resolvedFile).deletingLastPathComponent()
        var refused: String?
        for _ in 0..<maxLevels {
            switch folder.place(reference, relativeTo: base) {
            case .inside(let url): return url
            case .linkedOutside(let resolved): refused = refused ?? resolved
            // From a folder above the export, a name that does not lead back into it is simply not this one.
            case .outside(let path) where folder.contains(base.path): refused = refused ?? path
            case .outside, .missing: break
            }
            let parent = base.deletingLastPathComponent()
            if reference.hasPrefix("/") || parent.path == base.path { break }
            base = parent
        }
        if let refused { throw folder.refusal(reference, at: place, resolved: refused) }
        return nil
    }

    /// How many folders, from the file's own up, a lookup file is looked for in.
    private static let maxLevels = 8
}
