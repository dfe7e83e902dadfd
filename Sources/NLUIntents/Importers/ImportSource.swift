import Foundation
import NLUCore
import ZIPFoundation
import NLUInputOutput

/// The bytes an importer reads: one file, or the files of a folder or a zip archive addressed by
/// their relative, `/`-separated paths (so Lex V2 and Dialogflow read both forms the same way).
struct ImportSource {
    enum Kind { case file, folder, zip }

    let url: URL
    let kind: Kind
    /// Relative paths of the regular files (for a file: its name).
    let paths: [String]
    /// The same paths, for ``contains(_:)``.
    private let pathSet: Set<String>
    private let archive: Archive?
    /// A zip's file entries by path, read once: `archive[path]` walks the central directory, so a
    /// lookup per file made an agent of thousands of intents quadratic.
    private let entries: [String: Entry]
    /// What reading this zip's entries may unpack (shared by copies of this source).
    private let expansion: ZipExpansionBudget

    /// The folder that paths named inside this source's files must stay in (see ``ExportFolder``).
    let exportFolder: ExportFolder

    /// How errors name this source.
    var name: String { url.path }

    /// Opens `url`; `exportFolder` is the folder its files may name paths in (by default the folder
    /// imported, or the file's own folder: a project importer reading its files one by one passes its own).
    init(url: URL, expansion: ZipExpansionBudget = ZipExpansionBudget(), exportFolder: ExportFolder? = nil) throws {
        self.url = url
        self.expansion = expansion
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw IntentDatasetError.unreadable(file: url.path, reason: "no such file or folder")
        }
        var entries: [String: Entry] = [:]
        self.exportFolder = exportFolder ?? (isDirectory.boolValue ? ExportFolder(folder: url) : ExportFolder(containing: url))
        if isDirectory.boolValue {
            kind = .folder
            archive = nil
            paths = try Self.listFolder(url, inside: ExportFolder(folder: url))
        } else if Self.isZip(url) {
            kind = .zip
            // The declared count first: listing the entries reads each one's headers.
            if let declared = ZipEntryCount.declared(in: url) { try expansion.checkEntryCount(declared, zip: url.path) }
            let opened: Archive
            do { opened = try Archive(url: url, accessMode: .read) } catch {
                throw IntentDatasetError.unreadable(file: url.path, reason: "not a readable zip archive (\(error))")
            }
            archive = opened
            // Counted as listed too, for an archive whose count record was not where the format puts it.
            var listed: UInt64 = 0
            for entry in opened {
                listed += 1
                try expansion.checkEntryCount(listed, zip: url.path, listing: true)
                // The first entry of a path wins, as `archive[path]` answers.
                if entry.type == .file && entries[entry.path] == nil { entries[entry.path] = entry }
            }
            paths = entries.keys.filter { !$0.hasPrefix("__MACOSX/") }.sorted()
        } else {
            kind = .file
            archive = nil
            paths = [url.lastPathComponent]
        }
        self.entries = entries
        pathSet = Set(paths)
    }

    /// Whether the source has a file at `path`.
    func contains(_ path: String) -> Bool { pathSet.contains(path) }

    /// The bytes of the file at `path` (relative; for a single-file source, its name).
    func data(at path: String) throws -> Data {
        let display = kind == .file ? url.path : "\(url.path)/\(path)"
        switch kind {
        case .file:
            return try read(url, display: display)
        case .folder:
            return try read(url.appendingPathComponent(path), display: display)
        case .zip:
            guard let archive, let entry = entries[path] else {
                throw IntentDatasetError.missingFiles(file: url.path, expected: path)
            }
            // The declared size is checked first (cheap), the bytes as they come (the declaration may lie).
            guard entry.uncompressedSize <= UInt64(expansion.entryLimit) else {
                throw expansion.entryTooLarge(path: path, zip: url.path)
            }
            var buffer = Data()
            var entryBytes = 0
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    try expansion.take(chunk.count, entryBytes: &entryBytes, path: path, zip: url.path)
                    buffer.append(chunk)
                }
            } catch let error as IntentDatasetError {
                throw error
            } catch {
                throw IntentDatasetError.unreadable(file: display, reason: "cannot extract from zip (\(error))")
            }
            return buffer
        }
    }

    /// The text of the file at `path` (BOM stripped, Latin-1 fallback with a warning).
    func text(at path: String, warnings: inout [String]) throws -> String {
        TextDecoding.string(from: try data(at: path), file: displayName(path), warnings: &warnings)
    }

    /// The bytes of `path` as UTF-8 (for JSON decoding).
    func utf8Data(at path: String, warnings: inout [String]) throws -> Data {
        TextDecoding.utf8Data(from: try data(at: path), file: displayName(path), warnings: &warnings)
    }

    /// How errors name the file at `path`.
    func displayName(_ path: String) -> String {
        kind == .file ? url.path : "\(url.path)/\(path)"
    }

    private func read(_ fileURL: URL, display: String) throws -> Data {
        do { return try InputFile.read(fileURL, name: display) } catch let error as InputReadError {
            throw IntentDatasetError.unreadable(file: display, reason: error.reason)
        }
    }

    private static func isZip(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        return magic == Data([0x50, 0x4B, 0x03, 0x04]) || magic == Data([0x50, 0x4B, 0x05, 0x06])
    }

    /// The regular files below `url`, by their paths relative to it; a link leading outside `folder` is left out.
    private static func listFolder(_ url: URL, inside folder: ExportFolder) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw IntentDatasetError.unreadable(file: url.path, reason: "cannot list the folder")
        }
        var result: [String] = []
        for case let file as URL in enumerator {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let full = ExportFolder.realPath(file.path), full != folder.path, folder.contains(full) else { continue }
            result.append(String(full.dropFirst(folder.path.count + (folder.path.hasSuffix("/") ? 0 : 1))))
        }
        return result.sorted()
    }
}
