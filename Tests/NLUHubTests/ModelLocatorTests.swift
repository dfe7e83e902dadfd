import Foundation
import NLUCore
@testable import NLUHub
import NLUTestSupport
import Testing

/// `--model` resolution: local directories first, then Hub ids in the Hugging Face cache layout.
@Suite struct ModelLocatorTests {
    @Test func cacheDirectoryFollowsHuggingFaceHubPrecedence() throws {
        #expect(try ModelLocator.hubCache(environment: ["HF_HUB_CACHE": "/a", "HF_HOME": "/b", "HOME": "/h"]).path == "/a")
        #expect(try ModelLocator.hubCache(environment: ["HF_HOME": "/b", "HOME": "/h"]).path == "/b/hub")
        #expect(try ModelLocator.hubCache(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]).path == "/x/huggingface/hub")
        #expect(try ModelLocator.hubCache(environment: ["HOME": "/h"]).path == "/h/.cache/huggingface/hub")
    }

    @Test func hubIDsParseAndPathsDoNot() {
        #expect(HubModelID("sentence-transformers/all-MiniLM-L6-v2")?.cacheFolderName == "models--sentence-transformers--all-MiniLM-L6-v2")
        #expect(HubModelID("bert-base-uncased@v1.0") == HubModelID("bert-base-uncased@v1.0"))
        #expect(HubModelID("bert-base-uncased@v1.0")?.revision == "v1.0")
        for path in ["./model", "/abs/model", "a/b/c", "../x", "a//b", "org/na me", "org/x@", "x@../../etc"] {
            #expect(HubModelID(path) == nil, "\(path)")
        }
    }

    @Test func refsMainAndExplicitRevisionsPickTheirSnapshot() throws {
        let cache = TestScratch.file("nlukit-locator")
        defer { try? FileManager.default.removeItem(at: cache) }
        let repository = cache.appendingPathComponent("models--org--name")
        for commit in ["aaaa", "bbbb"] {
            try FileManager.default.createDirectory(at: repository.appendingPathComponent("snapshots/\(commit)"), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("refs"), withIntermediateDirectories: true)
        try Data("bbbb".utf8).write(to: repository.appendingPathComponent("refs/main"))
        let environment = ["HF_HUB_CACHE": cache.path]
        #expect(try ModelLocator.resolve("org/name", environment: environment).lastPathComponent == "bbbb")
        #expect(try ModelLocator.resolve("org/name@aaaa", environment: environment).lastPathComponent == "aaaa")
        #expect(throws: ModelLocatorError.revisionNotCached(id: "org/name@cccc", revision: "cccc", repository: repository.path,
                                                            available: ["aaaa", "bbbb"])) {
            try ModelLocator.resolve("org/name@cccc", environment: environment)
        }
        #expect(throws: ModelLocatorError.notCached(id: "org/other", cache: cache.path)) {
            try ModelLocator.resolve("org/other", environment: environment)
        }
        // A local directory wins over a Hub id of the same spelling.
        #expect(try ModelLocator.resolve(cache.path, environment: environment) == URL(fileURLWithPath: cache.path))
        #expect(try ModelLocator.cachedModels(environment: environment).map(\.id) == ["org/name"])
    }

    /// A ref that is no ref (a FIFO, which blocked the open forever; a huge file, which was read whole) is read as
    /// missing: the revision is then looked for as a commit, and the error names it.
    @Test func aRefThatIsAFIFOOrHugeIsMissingNotAHang() throws {
        let cache = TestScratch.file("nlukit-locator")
        defer { try? FileManager.default.removeItem(at: cache) }
        let repository = cache.appendingPathComponent("models--org--name")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("snapshots/bbbb"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("refs"), withIntermediateDirectories: true)
        let main = repository.appendingPathComponent("refs/main")
        #expect(mkfifo(main.path, 0o600) == 0)
        let environment = ["HF_HUB_CACHE": cache.path]
        let missing = ModelLocatorError.revisionNotCached(id: "org/name", revision: "main", repository: repository.path, available: ["bbbb"])
        #expect(throws: missing) { try ModelLocator.resolve("org/name", environment: environment) }
        #expect(try ModelLocator.cachedModels(environment: environment).first?.mainCommit == nil)

        try FileManager.default.removeItem(at: main)
        try Data(("bbbb" + String(repeating: " ", count: HubReferenceFile.maximumBytes)).utf8).write(to: main)
        #expect(throws: missing) { try ModelLocator.resolve("org/name", environment: environment) }
        try Data("bbbb\n".utf8).write(to: main)
        #expect(try ModelLocator.resolve("org/name", environment: environment).lastPathComponent == "bbbb")
    }
}
