#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The folder an export lies in, which the paths its files name (Rasa lookup files, `.lu` imports)
/// must not leave: the folder imported, or the file's own folder when one file is imported. A path
/// is placed after resolving `..` and symbolic links, so `../../etc/passwd`, `/etc/passwd` and a
/// link inside the folder that points outside are all outside, as the zip and folder readers of
/// ``ImportSource`` never see files outside theirs.
///
///     let folder = ExportFolder(containing: markdownFile)
///     if case .inside(let file) = folder.place("lookups/city.txt", relativeTo: markdownFile.deletingLastPathComponent()) { ... }
struct ExportFolder {
    /// Where a named path lies.
    enum Placement: Equatable {
        /// An existing file or folder inside, by its resolved path (read that, not the name).
        case inside(URL)
        /// Outside the folder by name (absolute, or by its `..` components): the path, never looked at.
        case outside(String)
        /// Inside by name, but a symbolic link on the way leads outside: where it leads (never read).
        case linkedOutside(String)
        /// Inside the folder by name, but nothing is there.
        case missing
    }

    /// The folder's path, symbolic links resolved.
    let path: String

    /// The folder `url` (a folder export).
    init(folder url: URL) {
        path = Self.realPath(url.path) ?? url.standardizedFileURL.path
    }

    /// The folder of the file `url` (a single-file export).
    init(containing url: URL) {
        self.init(folder: URL(fileURLWithPath: Self.realPath(url.path) ?? url.standardizedFileURL.path).deletingLastPathComponent())
    }

    /// Where `reference` (as written in a file: relative to `base`, or absolute) lies. A name that
    /// leaves the folder by its `..` components is outside without being looked at.
    func place(_ reference: String, relativeTo base: URL) -> Placement {
        let named = reference.hasPrefix("/") ? URL(fileURLWithPath: reference) : base.appendingPathComponent(reference)
        let lexical = named.standardizedFileURL.path
        guard contains(lexical) else { return .outside(lexical) }
        guard let resolved = Self.realPath(lexical) else { return .missing }
        return contains(resolved) ? .inside(URL(fileURLWithPath: resolved)) : .linkedOutside(resolved)
    }

    /// Whether the absolute, resolved `candidate` is the folder or lies below it.
    func contains(_ candidate: String) -> Bool {
        candidate == path || candidate.hasPrefix(path.hasSuffix("/") ? path : path + "/")
    }

    /// The refusal of `reference`, named at `place` (a file, or a file and line), that lies at `resolved`.
    func refusal(_ reference: String, at place: String, resolved: String) -> IntentDatasetError {
        .outsideExport(file: place, path: reference, resolved: resolved, folder: path)
    }

    /// `path` with every symbolic link and `..` resolved, as the system opens it; `nil` when nothing is there.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
