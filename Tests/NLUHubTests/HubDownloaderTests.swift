import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUHub

/// `HubDownloader` against ``HubTestServer`` on loopback: the cache layout huggingface_hub writes,
/// resuming, and what is (not) left behind when a download fails.
@Suite struct HubDownloaderTests {
    static let commit = "0123456789abcdef0123456789abcdef01234567"
    static let otherCommit = "89abcdef0123456789abcdef0123456789abcdef"
    static let config = Data(#"{"hidden_size": 8}"#.utf8)
    static let pooling = Data(#"{"pooling_mode_mean_tokens": true}"#.utf8)
    static let weights = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })

    static func repository() -> HubTestServer.Repository {
        HubTestServer.Repository(commit: commit, files: [
            ("config.json", config, false),
            ("1_Pooling/config.json", pooling, false),
            ("model.safetensors", weights, true),
            ("onnx/model.onnx", Data("not for nlukit".utf8), true),
        ], branches: ["v1": otherCommit])
    }

    /// A server with `org/model`, a fresh cache, and a downloader pointed at both.
    static func setUp(token: String? = nil) async throws -> (HubTestServer, HubDownloader, URL) {
        let server = HubTestServer()
        server.add("org/model", repository())
        try await server.start()
        let cache = TestScratch.file("nlukit-hub")
        var configuration = HubConfiguration(endpoint: server.endpoint, token: token, cache: cache)
        configuration.stallTimeout = 10
        return (server, HubDownloader(configuration: configuration), cache)
    }

    static func sha256(_ bytes: Data) -> String {
        var digest = SHA256()
        digest.update(bytes)
        return digest.hexDigest()
    }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test func writesTheCacheLayoutHuggingFaceHubWrites() async throws {
        let (server, downloader, cache) = try await Self.setUp(token: "hf_secret")
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await downloader.download(HubModelID("org/model")!)
        await server.stop()

        let folder = cache.appendingPathComponent("models--org--model")
        let snapshot = folder.appendingPathComponent("snapshots/\(Self.commit)")
        #expect(result.snapshot.standardizedFileURL == snapshot.standardizedFileURL)
        #expect(result.files == ["config.json", "1_Pooling/config.json", "model.safetensors"])   // *.onnx not selected
        #expect(result.bytesReceived == Int64(Self.config.count + Self.pooling.count + Self.weights.count))
        #expect(try String(contentsOf: folder.appendingPathComponent("refs/main"), encoding: .utf8) == Self.commit)
        // Relative links into blobs/, named by the ETag (git hash) or, for LFS files, the SHA-256.
        let fm = FileManager.default
        #expect(try fm.destinationOfSymbolicLink(atPath: snapshot.appendingPathComponent("config.json").path)
                == "../../blobs/" + HubTestServer.gitBlobName(Self.config))
        #expect(try fm.destinationOfSymbolicLink(atPath: snapshot.appendingPathComponent("1_Pooling/config.json").path)
                == "../../../blobs/" + HubTestServer.gitBlobName(Self.pooling))
        #expect(try fm.destinationOfSymbolicLink(atPath: snapshot.appendingPathComponent("model.safetensors").path)
                == "../../blobs/" + Self.sha256(Self.weights))
        #expect(try Data(contentsOf: snapshot.appendingPathComponent("model.safetensors")) == Self.weights)
        #expect(try Data(contentsOf: snapshot.appendingPathComponent("1_Pooling/config.json")) == Self.pooling)
        #expect(!exists(snapshot.appendingPathComponent("onnx")))
        #expect(exists(cache.appendingPathComponent(".locks/models--org--model/\(Self.sha256(Self.weights)).lock")))
        // --model org/model now resolves to the snapshot.
        #expect(try ModelLocator.resolve("org/model", environment: ["HF_HUB_CACHE": cache.path]).standardizedFileURL
                == snapshot.standardizedFileURL)
        // The token goes to the Hub, never to the CDN an LFS file is redirected to.
        let requests = server.requests
        #expect(requests.filter { !$0.path.hasPrefix("/cdn/") }.allSatisfy { $0.authorization == "Bearer hf_secret" })
        #expect(requests.contains { $0.path == "/cdn/org/model/model.safetensors" && $0.method == "GET" })
        #expect(requests.filter { $0.path.hasPrefix("/cdn/") }.allSatisfy { $0.authorization == nil })
    }

    @Test func secondDownloadFetchesNothing() async throws {
        let (server, downloader, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        _ = try await downloader.download(HubModelID("org/model")!)
        let before = server.requests.count
        let again = try await downloader.download(HubModelID("org/model")!)
        await server.stop()
        #expect(again.bytesReceived == 0)
        #expect(server.requests.count == before + 1)   // the revision's file list only
    }

    @Test func interruptedDownloadResumesWithRange() async throws {
        let (server, base, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        var downloader = base
        downloader.retries = 0
        server.cut("model.safetensors", after: 1200)
        let folder = cache.appendingPathComponent("models--org--model")
        let blob = folder.appendingPathComponent("blobs/\(Self.sha256(Self.weights))")
        await #expect(throws: HubError.self) { try await downloader.download(HubModelID("org/model")!) }
        // The part is kept for the resume; nothing names it yet.
        let part = try Data(contentsOf: URL(fileURLWithPath: blob.path + ".incomplete"))
        #expect(part == Self.weights.prefix(1200))
        #expect(!exists(blob))
        #expect(!exists(folder.appendingPathComponent("snapshots/\(Self.commit)/model.safetensors")))
        #expect(!exists(folder.appendingPathComponent("refs/main")))

        let result = try await downloader.download(HubModelID("org/model")!)
        await server.stop()
        let gets = server.requests.filter { $0.path == "/cdn/org/model/model.safetensors" && $0.method == "GET" }
        #expect(gets.map(\.range) == [nil, "bytes=1200-"])
        #expect(result.bytesReceived == Int64(Self.weights.count - 1200))
        #expect(try Data(contentsOf: blob) == Self.weights)
        #expect(!exists(URL(fileURLWithPath: blob.path + ".incomplete")))
        #expect(exists(folder.appendingPathComponent("refs/main")))
    }

    @Test func cutTransferIsResumedWithinOneCall() async throws {
        let (server, downloader, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.cut("model.safetensors", after: 3000)
        let result = try await downloader.download(HubModelID("org/model")!)
        await server.stop()
        let gets = server.requests.filter { $0.path == "/cdn/org/model/model.safetensors" && $0.method == "GET" }
        #expect(gets.map(\.range) == [nil, "bytes=3000-"])
        #expect(try Data(contentsOf: result.snapshot.appendingPathComponent("model.safetensors")) == Self.weights)
    }

    @Test func corruptBodyLeavesNothingInTheCache() async throws {
        let (server, downloader, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.corrupt("model.safetensors")
        await #expect {
            try await downloader.download(HubModelID("org/model")!)
        } throws: { error in
            guard case let .corruptDownload(file, reason)? = error as? HubError else { return false }
            return file == "model.safetensors" && reason.contains("SHA-256")
        }
        await server.stop()
        let folder = cache.appendingPathComponent("models--org--model")
        let blob = folder.appendingPathComponent("blobs/\(Self.sha256(Self.weights))")
        #expect(!exists(blob))
        #expect(!exists(URL(fileURLWithPath: blob.path + ".incomplete")))
        #expect(!exists(folder.appendingPathComponent("snapshots/\(Self.commit)/model.safetensors")))
        #expect(!exists(folder.appendingPathComponent("refs/main")))
    }

    @Test func shortBodyOfASmallFileIsNotStored() async throws {
        let (server, base, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        var downloader = base
        downloader.retries = 0
        server.cut("config.json", after: 5)
        await #expect {
            try await downloader.download(HubModelID("org/model")!)
        } throws: { error in
            guard case let .interrupted(file, received, expected, _)? = error as? HubError else { return false }
            return file == "config.json" && received == 5 && expected == Int64(Self.config.count)
        }
        await server.stop()
        let folder = cache.appendingPathComponent("models--org--model")
        #expect(!exists(folder.appendingPathComponent("blobs/\(HubTestServer.gitBlobName(Self.config))")))
        #expect(!exists(folder.appendingPathComponent("snapshots/\(Self.commit)/config.json")))
    }

    @Test func revisionIsRecordedUnderRefs() async throws {
        let (server, downloader, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await downloader.download(HubModelID("org/model@v1")!)
        await server.stop()
        #expect(result.commit == Self.otherCommit)
        let folder = cache.appendingPathComponent("models--org--model")
        #expect(try String(contentsOf: folder.appendingPathComponent("refs/v1"), encoding: .utf8) == Self.otherCommit)
        #expect(!exists(folder.appendingPathComponent("refs/main")))
        #expect(try ModelLocator.resolve("org/model@v1", environment: ["HF_HUB_CACHE": cache.path]).lastPathComponent == Self.otherCommit)
    }

    @Test func unknownModelSaysSoAndHintsAtTheToken() async throws {
        let (server, downloader, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        await #expect(throws: HubError.noSuchModel(id: "org/nothing", tokenSent: false)) {
            try await downloader.download(HubModelID("org/nothing")!)
        }
        await #expect(throws: HubError.noSuchRevision(id: "org/model", revision: "v9")) {
            try await downloader.download(HubModelID("org/model@v9")!)
        }
        await server.stop()
        #expect(HubError.noSuchModel(id: "org/nothing", tokenSent: false).description.contains("HF_TOKEN"))
        #expect(!exists(cache.appendingPathComponent("models--org--nothing")))
    }

    @Test func privateModelNeedsTheToken() async throws {
        let (server, anonymous, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.requiredToken = "hf_right"
        await #expect(throws: HubError.noSuchModel(id: "org/model", tokenSent: false)) {
            try await anonymous.download(HubModelID("org/model")!)
        }
        var configuration = anonymous.configuration
        configuration.token = "hf_right"
        let result = try await HubDownloader(configuration: configuration).download(HubModelID("org/model")!)
        await server.stop()
        #expect(result.files.count == 3)
    }

    @Test func unreachableServerIsNamed() async throws {
        // A port that was just free: nothing listens there.
        let (server, _, cache) = try await Self.setUp()
        let endpoint = server.endpoint
        await server.stop()
        let downloader = HubDownloader(configuration: HubConfiguration(endpoint: endpoint, token: nil, cache: cache))
        await #expect {
            try await downloader.download(HubModelID("org/model")!)
        } throws: { error in
            guard case let .unreachable(named, _)? = error as? HubError else { return false }
            return named == endpoint.absoluteString
        }
        #expect(!exists(cache))
    }

    /// HF_HUB_OFFLINE=1: a revision in the cache is answered from it without a single request (as huggingface_hub's
    /// snapshot_download offline), one that is not fails naming the setting.
    @Test func offlineModeAnswersFromTheCacheWithoutARequest() async throws {
        let (server, online, cache) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        let downloaded = try await online.download(HubModelID("org/model")!)
        let requestsBefore = server.requests.count
        var configuration = try HubConfiguration(environment: ["HF_HUB_CACHE": cache.path, "HF_ENDPOINT": server.endpoint.absoluteString,
                                                               "HF_HUB_OFFLINE": "1"])
        #expect(configuration.offline && configuration.offlineSetting == "HF_HUB_OFFLINE=1")
        configuration.stallTimeout = 10
        let offline = HubDownloader(configuration: configuration)
        let cached = try await offline.download(HubModelID("org/model")!)
        #expect(cached.snapshot.standardizedFileURL == downloaded.snapshot.standardizedFileURL)
        #expect(cached.commit == Self.commit && cached.offline && cached.bytesReceived == 0)
        #expect(cached.files == ["1_Pooling/config.json", "config.json", "model.safetensors"])
        // By commit hash too; a filter keeps only what it selects.
        let byCommit = try await offline.download(HubModelID("org/model@\(Self.commit)")!, filter: HubFileFilter(patterns: ["*.json"]))
        #expect(byCommit.files == ["1_Pooling/config.json", "config.json"])
        // Not in the cache: another revision, another model, or no file the filter asks for.
        await #expect(throws: HubError.notCachedOffline(id: "org/model", revision: "v1", cache: cache.path, setting: "HF_HUB_OFFLINE=1")) {
            try await offline.download(HubModelID("org/model@v1")!)
        }
        await #expect(throws: HubError.notCachedOffline(id: "org/other", revision: "main", cache: cache.path, setting: "HF_HUB_OFFLINE=1")) {
            try await offline.download(HubModelID("org/other")!)
        }
        await #expect(throws: HubError.noCachedFileOffline(id: "org/model", commit: Self.commit, patterns: ["*.onnx"], setting: "HF_HUB_OFFLINE=1")) {
            try await offline.download(HubModelID("org/model")!, filter: HubFileFilter(patterns: ["*.onnx"]))
        }
        await server.stop()
        #expect(server.requests.count == requestsBefore)
        #expect(HubError.notCachedOffline(id: "org/other", revision: "main", cache: "/c", setting: "HF_HUB_OFFLINE=1").description
                == "org/other@main is not in the Hugging Face cache (/c), and HF_HUB_OFFLINE=1 keeps nlu off the network (huggingface_hub's offline mode): unset HF_HUB_OFFLINE or set it to 0 to download it")
    }

    @Test func offlineModeIsReadAsHuggingFaceHubReadsIt() throws {
        func setting(_ environment: [String: String]) throws -> String? {
            let configuration = try HubConfiguration(environment: environment.merging(["HOME": "/nonexistent-home"]) { $1 })
            return configuration.offline ? configuration.offlineSetting : nil
        }
        #expect(try setting([:]) == nil)
        for value in ["1", "ON", "yes", "True"] { #expect(try setting(["HF_HUB_OFFLINE": value]) == "HF_HUB_OFFLINE=\(value)") }
        for value in ["0", "", "false", "no", "2"] { #expect(try setting(["HF_HUB_OFFLINE": value]) == nil, "\(value)") }
        // TRANSFORMERS_OFFLINE counts only when HF_HUB_OFFLINE is unset or empty (`HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE`).
        #expect(try setting(["TRANSFORMERS_OFFLINE": "1"]) == "TRANSFORMERS_OFFLINE=1")
        #expect(try setting(["HF_HUB_OFFLINE": "", "TRANSFORMERS_OFFLINE": "1"]) == "TRANSFORMERS_OFFLINE=1")
        #expect(try setting(["HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "1"]) == nil)
    }

    @Test func filterSelectsFilesAsFnmatchDoes() {
        #expect(HubFileFilter.nlukit.includes("1_Pooling/config.json"))
        #expect(HubFileFilter.nlukit.includes("model.safetensors"))
        #expect(!HubFileFilter.nlukit.includes("onnx/model.onnx"))
        #expect(!HubFileFilter.nlukit.includes("pytorch_model.bin"))
        #expect(HubFileFilter(patterns: ["onnx/"]).includes("onnx/model.onnx"))
        #expect(HubFileFilter.all.includes(".gitattributes"))
    }

    @Test func repositoryListingWithUnsafePathsIsRefused() {
        let escape = Data(#"{"sha": "0123456789abcdef0123456789abcdef01234567", "siblings": [{"rfilename": "../../etc/x"}]}"#.utf8)
        #expect(throws: HubError.self) { try HubRepositoryInfo.decode(escape, url: "u") }
        let badCommit = Data(#"{"sha": "../main", "siblings": []}"#.utf8)
        #expect(throws: HubError.self) { try HubRepositoryInfo.decode(badCommit, url: "u") }
    }

    @Test func configurationReadsTheEnvironmentAsHuggingFaceHub() throws {
        let directory = try TestScratch.folder("nlukit-hf-home")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("hf_from_file\n".utf8).write(to: directory.appendingPathComponent("token"))
        let fromFile = try HubConfiguration(environment: ["HF_HOME": directory.path, "HF_ENDPOINT": "http://mirror.example:8080/"])
        #expect(fromFile.token == "hf_from_file")
        #expect(fromFile.endpoint.absoluteString == "http://mirror.example:8080")
        #expect(fromFile.cache.path == directory.appendingPathComponent("hub").path)
        let fromVariable = try HubConfiguration(environment: ["HF_HOME": directory.path, "HF_TOKEN": "hf_variable"])
        #expect(fromVariable.token == "hf_variable")
        #expect(fromVariable.endpoint.absoluteString == "https://huggingface.co")
        #expect(throws: HubError.invalidEndpoint("ftp://x")) { try HubConfiguration(environment: ["HF_ENDPOINT": "ftp://x"]) }
    }

    /// `nlu models download` with HF_HOME naming a file failed at "cannot create the directory" under it.
    @Test func aCacheVariableNamingAFileIsRefusedBeforeDownloading() throws {
        let file = TestScratch.file("nlukit-hf-home-file")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: HubCacheProblem.variableIsAFile(variable: "HF_HOME", path: file.path)) {
            try HubConfiguration(environment: ["HF_HOME": file.path])
        }
    }
}
