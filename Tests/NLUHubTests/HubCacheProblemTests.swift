import Foundation
import NLUCore
@testable import NLUHub
import NLUTestSupport
import Testing

/// A snapshot whose links lead to missing blobs (an interrupted download) was loaded as a folder
/// without config.json: "not a sentence-transformers model". A cache variable naming a file said
/// the model was not in the cache. Both now say what is wrong and what to run.
@Suite struct HubCacheProblemTests {
    /// A cache with `models--org--name/snapshots/c0ffee` whose `files` are links to blobs; the
    /// blobs listed in `present` exist.
    static func cache(files: [String], present: Set<String>) throws -> URL {
        let cache = TestScratch.file("nlukit-hubcache")
        let repository = cache.appendingPathComponent("models--org--name")
        let snapshot = repository.appendingPathComponent("snapshots/c0ffee")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("blobs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("refs"), withIntermediateDirectories: true)
        try Data("c0ffee".utf8).write(to: repository.appendingPathComponent("refs/main"))
        for (index, file) in files.enumerated() {
            let blob = "blob\(index)"
            if present.contains(file) { try Data("{}".utf8).write(to: repository.appendingPathComponent("blobs/\(blob)")) }
            let pointer = snapshot.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: pointer.deletingLastPathComponent(), withIntermediateDirectories: true)
            let depth = file.split(separator: "/").count + 1
            try FileManager.default.createSymbolicLink(atPath: pointer.path,
                                                       withDestinationPath: String(repeating: "../", count: depth) + "blobs/" + blob)
        }
        return cache
    }

    @Test func aLinkToAMissingBlobNamesTheFileAndTheDownloadCommand() throws {
        let cache = try Self.cache(files: ["1_Pooling/config.json", "config.json", "model.safetensors"],
                                   present: ["1_Pooling/config.json", "model.safetensors"])
        defer { try? FileManager.default.removeItem(at: cache) }
        let snapshot = cache.appendingPathComponent("models--org--name/snapshots/c0ffee")
        let blob = cache.appendingPathComponent("models--org--name/blobs/blob1").standardizedFileURL.path
        let error = #expect(throws: HubCacheProblem.self) { try ModelLocator.resolve("org/name", environment: ["HF_HUB_CACHE": cache.path]) }
        #expect(error == .missingBlob(snapshot: snapshot.path, file: "config.json", blob: blob, id: "org/name"))
        #expect(error?.description == "\(snapshot.path): config.json links to a missing blob (\(blob)): the download is incomplete; "
                + "run `nlu models download org/name` to fetch the missing files")
        // The snapshot folder given by path says the same.
        #expect(throws: HubCacheProblem.missingBlob(snapshot: snapshot.path, file: "config.json", blob: blob, id: "org/name")) {
            try ModelLocator.resolve(snapshot.path, environment: [:])
        }
    }

    @Test func aMissingBlobInASubfolderIsFoundToo() throws {
        let cache = try Self.cache(files: ["1_Pooling/config.json", "config.json"], present: ["config.json"])
        defer { try? FileManager.default.removeItem(at: cache) }
        let error = #expect(throws: HubCacheProblem.self) { try ModelLocator.resolve("org/name", environment: ["HF_HUB_CACHE": cache.path]) }
        guard case .missingBlob(_, let file, _, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(file == "1_Pooling/config.json")
    }

    @Test func aCompleteSnapshotAndOtherBrokenLinksInAModelFolderAreAccepted() throws {
        let cache = try Self.cache(files: ["config.json", "model.safetensors"], present: ["config.json", "model.safetensors"])
        defer { try? FileManager.default.removeItem(at: cache) }
        #expect(try ModelLocator.resolve("org/name", environment: ["HF_HUB_CACHE": cache.path]).lastPathComponent == "c0ffee")
        // A folder of the user's with a dangling link that is no cache pointer is none of the loader's business.
        let folder = cache.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("notes").path, withDestinationPath: "nowhere")
        #expect(try ModelLocator.resolve(folder.path, environment: [:]).path == folder.path)
    }

    @Test(arguments: ["HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"])
    func aCacheVariableNamingAFileSaysSo(variable: String) throws {
        let file = TestScratch.file("nlukit-hfhome")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: HubCacheProblem.self) { try ModelLocator.resolve("org/name", environment: [variable: file.path]) }
        #expect(error == .variableIsAFile(variable: variable, path: file.path))
        #expect(error?.description.hasPrefix("\(variable) points to a file (\(file.path)), expected ") == true)
        // Only the variable that chooses the cache counts.
        if variable != "HF_HUB_CACHE" {
            let cache = try TestScratch.folder("empty-cache").path
            #expect(throws: ModelLocatorError.notCached(id: "org/name", cache: cache)) {
                try ModelLocator.resolve("org/name", environment: ["HF_HUB_CACHE": cache, variable: file.path])
            }
        }
    }
}
