import Foundation

/// Turns what a user typed after `--model` into a model directory: a local directory as it is, or a
/// Hugging Face Hub id (`ORG/NAME`, optionally `@REVISION`) found in the standard Hugging Face cache,
/// so a model that `huggingface-cli download` or Python fetched is used without copying.
///
/// The cache is `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`, else
/// `~/.cache/huggingface/hub`; a model lives in `models--ORG--NAME/snapshots/COMMIT/`, and
/// `refs/main` (or `refs/REVISION`) names the commit.
///
///     let directory = try ModelLocator.resolve("sentence-transformers/all-MiniLM-L6-v2")
///     // ~/.cache/huggingface/hub/models--sentence-transformers--all-MiniLM-L6-v2/snapshots/c9745ed1.../
public enum ModelLocator {
    /// The Hugging Face hub cache directory the environment selects.
    /// - Throws: ``HubCacheProblem/noCacheFolder`` when HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME and HOME are
    ///   all unset (or empty): there is no folder to look in, and guessing one found nothing while
    ///   `nlu similarity` went on to print nothing and succeed.
    public static func hubCache(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let path = environment["HF_HUB_CACHE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let home = environment["HF_HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent("hub") }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            return URL(fileURLWithPath: cache).appendingPathComponent("huggingface/hub")
        }
        guard let home = environment["HOME"], !home.isEmpty else { throw HubCacheProblem.noCacheFolder }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/huggingface/hub")
    }

    /// The directory `reference` names: an existing local directory, else a Hub id in the cache.
    /// - Throws: ``ModelLocatorError`` saying where it looked and how to download the model;
    ///   ``HubCacheProblem`` for a snapshot with links to missing blobs, a cache variable naming a file,
    ///   or no variable to choose the cache by.
    public static func resolve(_ reference: String,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: reference, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ModelLocatorError.notADirectory(path: reference) }
            try HubCacheProblem.checkLinks(in: URL(fileURLWithPath: reference), recursive: false, onlyBlobs: true)
            return URL(fileURLWithPath: reference)
        }
        guard let id = HubModelID(reference) else { throw ModelLocatorError.notFound(path: reference) }
        try HubCacheProblem.checkVariables(environment: environment)
        let cache = try hubCache(environment: environment)
        let repository = cache.appendingPathComponent(id.cacheFolderName)
        guard FileManager.default.fileExists(atPath: repository.path) else {
            throw ModelLocatorError.notCached(id: id.description, cache: cache.path)
        }
        let snapshots = repository.appendingPathComponent("snapshots")
        let revision = id.revision ?? "main"
        // A revision is a ref (refs/REVISION holds the commit) or a commit itself.
        let refURL = repository.appendingPathComponent("refs").appendingPathComponent(revision)
        let commit = HubReferenceFile.commit(at: refURL) ?? revision
        let snapshot = snapshots.appendingPathComponent(commit)
        guard !commit.isEmpty, !commit.contains("/"), !commit.hasPrefix("."),
              FileManager.default.fileExists(atPath: snapshot.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            let available = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path))?.sorted() ?? []
            throw ModelLocatorError.revisionNotCached(id: id.description, revision: revision, repository: repository.path,
                                                      available: available)
        }
        try HubCacheProblem.checkLinks(in: snapshot)
        return snapshot
    }

    /// The models in the cache: id, snapshot directories, and size on disk.
    /// - Throws: ``HubCacheProblem/noCacheFolder`` as ``hubCache(environment:)``.
    public static func cachedModels(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [CachedModel] {
        let cache = try hubCache(environment: environment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        return names.sorted().compactMap { name -> CachedModel? in
            guard let id = HubModelID.repository(ofCacheFolder: name) else { return nil }
            let repository = cache.appendingPathComponent(name)
            let snapshots = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("snapshots").path)) ?? []
            let main = HubReferenceFile.commit(at: repository.appendingPathComponent("refs/main"))
            return CachedModel(id: id, directory: repository, snapshots: snapshots.sorted(), mainCommit: main,
                               sizeInBytes: directorySize(repository))
        }
    }

    /// Bytes in the regular files under `url`. Snapshot entries the Hub client made are links to
    /// blobs: they are skipped, so each file counts once.
    private static func directorySize(_ url: URL) -> Int64 {
        let keys: [URLResourceKey] = [.fileSizeKey, .isSymbolicLinkKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys) else { return 0 }
        var total: Int64 = 0
        for case let file as URL in enumerator {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isSymbolicLink != true,
                  values.isRegularFile == true else { continue }
            total += Int64(values.fileSize ?? 0)
        }
        return total
    }
}

/// A model found in the Hugging Face cache.
public struct CachedModel: Sendable, Equatable {
    /// The Hub id, `ORG/NAME`.
    public var id: String
    /// `models--ORG--NAME` in the cache.
    public var directory: URL
    /// The commits with a snapshot directory.
    public var snapshots: [String]
    /// The commit `refs/main` names, when present.
    public var mainCommit: String?
    /// Bytes of the repository's files on disk (each file once).
    public var sizeInBytes: Int64
}

/// A Hub model id as typed: `NAME` or `ORG/NAME`, optionally followed by `@REVISION`.
public struct HubModelID: Sendable, Equatable, CustomStringConvertible {
    public var repository: String
    public var revision: String?

    /// Parses `reference`; nil when it cannot be a Hub id (a path such as `./x`, `/x`, `a/b/c`).
    public init?(_ reference: String) {
        let parts = reference.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        guard (1...2).contains(components.count),
              components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.hasPrefix("-")
                  && $0.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) } && !$0.contains("--") }) else { return nil }
        repository = name
        if parts.count == 2 {
            let revision = String(parts[1])
            guard Self.isValidRevision(revision) else { return nil }
            self.revision = revision
        }
    }

    /// True when `revision` can be a branch, tag or commit hash: it becomes a path under the cache's
    /// `refs/`, so it must stay there. Not empty, not absolute, no empty, `.`-led or `..` part, no space,
    /// control character or any of `\ ~ ^ : ? * [` (git's own rules for ref names). The one check for
    /// both spellings, `ORG/NAME@REV` and `--revision REV` (`refs/pr/1` is fine).
    public static func isValidRevision(_ revision: String) -> Bool {
        guard !revision.isEmpty, revision.utf8.count <= 255, !revision.contains("..") else { return false }
        let forbidden = Set("\\~^:?*[ ".unicodeScalars)
        guard !revision.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || forbidden.contains($0) }) else {
            return false
        }
        return revision.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") }
    }

    /// `models--ORG--NAME`, the cache's folder for the repository.
    public var cacheFolderName: String { "models--" + repository.replacingOccurrences(of: "/", with: "--") }

    /// `ORG/NAME` for the cache folder `models--ORG--NAME` (``cacheFolderName``); nil for another name.
    public static func repository(ofCacheFolder name: String) -> String? {
        guard name.hasPrefix("models--"), name.count > "models--".count else { return nil }
        return name.dropFirst("models--".count).replacingOccurrences(of: "--", with: "/")
    }

    /// `ORG/NAME` when `directory` is a snapshot in a Hugging Face cache
    /// (`…/models--ORG--NAME/snapshots/COMMIT`); nil otherwise.
    public static func repository(ofSnapshot directory: URL) -> String? {
        let components = directory.standardizedFileURL.pathComponents
        guard components.count >= 3, components[components.count - 2] == "snapshots" else { return nil }
        return repository(ofCacheFolder: components[components.count - 3])
    }

    public var description: String { revision.map { "\(repository)@\($0)" } ?? repository }
}

/// Why `--model` names no usable directory.
public enum ModelLocatorError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case notFound(path: String)
    case notADirectory(path: String)
    case notCached(id: String, cache: String)
    case revisionNotCached(id: String, revision: String, repository: String, available: [String])

    public var description: String {
        switch self {
        case let .notFound(path):
            return "\(path): not found (no such directory, and not a Hugging Face model id ORG/NAME)"
        case let .notADirectory(path):
            return "\(path): not a directory (a model is a directory with config.json and its weights)"
        case let .notCached(id, cache):
            return "\(id): not a local directory, and not in the Hugging Face cache (\(cache)). Download it first, "
                + "with `nlu models download \(id)` (or `huggingface-cli download \(id)`), or set HF_HUB_CACHE / HF_HOME "
                + "to the cache that holds it."
        case let .revisionNotCached(id, revision, repository, available):
            let listed = available.isEmpty ? "no snapshots" : "snapshots: " + available.joined(separator: ", ")
            return "\(id): revision '\(revision)' is not in the cache (\(repository); \(listed))"
        }
    }

    public var errorDescription: String? { description }
}
