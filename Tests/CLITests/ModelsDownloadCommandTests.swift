import Foundation
import NLUTestSupport
import Testing

/// `nlu models download` as a user meets it: usage errors exit 2, a server that cannot be reached
/// exits 1 naming it, and nothing is created in the cache. (Downloads themselves are tested against a
/// Hub-shaped loopback server in NLUHubTests.)
@Suite struct ModelsDownloadCommandTests {
    @Test func notAHubIDIsAUsageError() throws {
        let run = try runNLU(["models", "download", "../etc"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("is not a Hub model id"))
    }

    @Test func includeAndAllTogetherIsAUsageError() throws {
        let run = try runNLU(["models", "download", "org/model", "--all", "--include", "*.json"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--include or --all"))
    }

    @Test func revisionTwiceIsAUsageError() throws {
        let run = try runNLU(["models", "download", "org/model@v1", "--revision", "v2"])
        #expect(run.status == 2)
    }

    @Test func unreachableServerExitsOneAndWritesNothing() throws {
        let cache = TestScratch.file("nlukit-cli-hub")
        defer { try? FileManager.default.removeItem(at: cache) }
        // Port 9 (discard) on loopback: nothing listens there on a build machine, so the connection is refused.
        let run = try runNLU(["models", "download", "org/model"],
                             environment: ["HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_CACHE": cache.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot reach http://127.0.0.1:9"))
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    /// HF_HUB_OFFLINE=1 keeps `nlu` off the network (the endpoint here refuses connections, so any request would
    /// fail): a cached model is reported ready, an uncached one fails naming HF_HUB_OFFLINE.
    @Test func offlineModeReportsACachedModelAndRefusesAnUncachedOne() throws {
        let cache = try makeHubCache(holding: "acme/tiny-qa", at: QACommandTests.bert)
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_CACHE": cache.path, "HF_HUB_OFFLINE": "1"]
        let snapshot = cache.appendingPathComponent("models--acme--tiny-qa/snapshots/\(hubCacheCommit)").path
        let cached = try runNLU(["models", "download", "acme/tiny-qa"], environment: environment)
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stdout == snapshot + "\n")
        #expect(cached.stderr.contains("acme/tiny-qa: in the cache at commit \(hubCacheCommit)"), "\(cached.stderr)")
        #expect(cached.stderr.contains("HF_HUB_OFFLINE=1: the Hub was not asked for changes"))
        let json = try runNLU(["models", "download", "acme/tiny-qa", "--json"], environment: environment)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(summary["offline"] as? Bool == true && summary["bytesReceived"] as? Int == 0 && summary["commit"] as? String == hubCacheCommit)
        #expect((summary["files"] as? [String])?.contains("config.json") == true)

        let uncached = try runNLU(["models", "download", "acme/other"], environment: environment)
        #expect(uncached.status == 1)
        #expect(uncached.stdout.isEmpty)
        #expect(uncached.stderr.contains("Error: acme/other@main is not in the Hugging Face cache (\(cache.path)), and HF_HUB_OFFLINE=1 keeps nlu off the network"),
                "\(uncached.stderr)")
        #expect(!uncached.stderr.contains("cannot reach"))
    }

    @Test func endpointThatIsNoURLIsNamed() throws {
        let run = try runNLU(["models", "download", "org/model"], environment: ["HF_ENDPOINT": "not a url"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("HF_ENDPOINT 'not a url'"))
    }
}
