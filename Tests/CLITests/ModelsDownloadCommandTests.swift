import Foundation
import Testing

/// `nlu models download` as a user meets it: usage errors exit 2, a server that cannot be reached
/// exits 1 naming it, and nothing is created in the cache. (Downloads themselves are tested against a
/// Hub-shaped loopback server in NLUHubTests.)
@Suite struct ModelsDownloadCommandTests {
    private func temporaryCache() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-cli-hub-\(UUID().uuidString)")
    }

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
        let cache = temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        // Port 9 (discard) on loopback: nothing listens there on a build machine, so the connection is refused.
        let run = try runNLU(["models", "download", "org/model"],
                             environment: ["HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_CACHE": cache.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot reach http://127.0.0.1:9"))
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test func endpointThatIsNoURLIsNamed() throws {
        let run = try runNLU(["models", "download", "org/model"], environment: ["HF_ENDPOINT": "not a url"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("HF_ENDPOINT 'not a url'"))
    }
}
