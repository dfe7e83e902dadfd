import Foundation

/// Why the Hugging Face cache cannot give a model although the user pointed at it: a cache variable
/// naming a file, or a snapshot whose links lead to blobs that are not there (a download that
/// stopped, blobs deleted by hand). Without this the model's loader saw files missing and said
/// "not a sentence-transformers model", which sends the user looking in the wrong place.
///
///     try HubCacheProblem.checkVariables(environment: ProcessInfo.processInfo.environment)
///     try HubCacheProblem.checkLinks(in: snapshot)   // "config.json links to a missing blob ..."
public enum HubCacheProblem: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// `variable` (HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME) names a file, where the cache needs a folder.
    case variableIsAFile(variable: String, path: String)
    /// `file` in the snapshot folder is a link to `blob`, which does not exist.
    case missingBlob(snapshot: String, file: String, blob: String, id: String?)
    /// None of the variables that choose the cache (HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, HOME) is set.
    case noCacheFolder

    /// Throws when the variable that chooses the cache (``ModelLocator/hubCache(environment:)``) names a file.
    public static func checkVariables(environment: [String: String]) throws {
        for variable in ["HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"] {
            guard let path = environment[variable], !path.isEmpty else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw variableIsAFile(variable: variable, path: path)
            }
            return   // only the first one set is used
        }
    }

    /// Throws for the first entry of `snapshot` (sorted; in subfolders too when `recursive`) that is
    /// a link leading nowhere. With `onlyBlobs`, only links into a `blobs` folder count: a model
    /// folder given by path may hold other links that are none of the loader's business.
    public static func checkLinks(in snapshot: URL, recursive: Bool = true, onlyBlobs: Bool = false) throws {
        let manager = FileManager.default
        let entries = recursive ? (manager.enumerator(atPath: snapshot.path)?.allObjects as? [String] ?? [])
            : (try? manager.contentsOfDirectory(atPath: snapshot.path)) ?? []
        for entry in entries.sorted() {
            let url = snapshot.appendingPathComponent(entry)
            guard let target = try? manager.destinationOfSymbolicLink(atPath: url.path),
                  !manager.fileExists(atPath: url.path) else { continue }   // fileExists follows the link
            if onlyBlobs && !target.contains("blobs/") { continue }
            let blob = target.hasPrefix("/") ? target
                : url.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL.path
            throw missingBlob(snapshot: snapshot.path, file: entry, blob: blob, id: repositoryID(of: snapshot))
        }
    }

    /// `ORG/NAME` of a `models--ORG--NAME/snapshots/COMMIT` folder, else nil.
    static func repositoryID(of snapshot: URL) -> String? {
        let components = snapshot.standardizedFileURL.pathComponents
        guard components.count >= 3, components[components.count - 2] == "snapshots",
              case let folder = components[components.count - 3], folder.hasPrefix("models--") else { return nil }
        return folder.dropFirst("models--".count).replacingOccurrences(of: "--", with: "/")
    }

    public var description: String {
        switch self {
        case let .variableIsAFile(variable, path):
            let cache = variable == "HF_HUB_CACHE" ? "the Hugging Face cache folder"
                : variable == "HF_HOME" ? "a folder (the cache is $HF_HOME/hub)" : "a folder (the cache is $XDG_CACHE_HOME/huggingface/hub)"
            return "\(variable) points to a file (\(path)), expected \(cache): set it to a folder or unset it"
        case let .missingBlob(snapshot, file, blob, id):
            let command = id.map { "`nlu models download \($0)`" } ?? "`nlu models download ORG/NAME`"
            return "\(snapshot): \(file) links to a missing blob (\(blob)): the download is incomplete; run \(command) to fetch the missing files"
        case .noCacheFolder:
            return "no Hugging Face cache folder to look in: HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME and HOME are all unset "
                + "(set HF_HUB_CACHE to the cache folder, or HOME)"
        }
    }

    public var errorDescription: String? { description }
}
