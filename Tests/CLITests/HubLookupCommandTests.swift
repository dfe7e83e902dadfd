import Foundation
import NLUTestSupport
import Testing

/// `nlu models download` and `--model ORG/NAME` where the environment or the network is not as expected:
/// one revision rule for both spellings, time limits checked as usage, a cached model used when the Hub
/// cannot be reached, no cache folder at all.
@Suite struct HubLookupCommandTests {
    /// `org/model@/abs/path` wrote `refs/abs/path` in the cache while `--revision /abs/path` was refused.
    @Test func revisionInTheIDIsCheckedAsRevisionOptionIs() throws {
        let cache = try TestScratch.folder("nlukit-cli-hub-revision")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_CACHE": cache.path]
        let inID = try runNLU(["models", "download", "org/model@/abs/path"], environment: environment)
        let asOption = try runNLU(["models", "download", "org/model", "--revision", "/abs/path"], environment: environment)
        for run in [inID, asOption] {
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("Error: revision '/abs/path' is not a branch, tag or commit hash"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)
        let dotted = try runNLU(["models", "download", "org/model@a/../b"], environment: environment)
        #expect(dotted.status == 2 && dotted.stderr.contains("revision 'a/../b' is not a branch"), "\(dotted.stderr)")
    }

    @Test func timeLimitsAreCheckedBeforeAnyRequest() throws {
        let stall = try runNLU(["models", "download", "org/model", "--stall-timeout", "0"])
        #expect(stall.status == 2)
        #expect(stall.stderr.contains("--stall-timeout '0' is not a number of seconds above 0 and at most 1000000"), "\(stall.stderr)")
        let deadline = try runNLU(["models", "download", "org/model", "--deadline", "soon"])
        #expect(deadline.status == 2 && deadline.stderr.contains("--deadline 'soon' is not a number of seconds"), "\(deadline.stderr)")
        let variable = try runNLU(["models", "download", "org/model"],
                                           environment: ["HF_HUB_DOWNLOAD_TIMEOUT": "-5", "HF_ENDPOINT": "http://127.0.0.1:9"])
        #expect(variable.status == 1 && variable.stderr.contains("HF_HUB_DOWNLOAD_TIMEOUT '-5' is not a number of seconds"), "\(variable.stderr)")
    }

    /// Issue #45: the network down (HF_HUB_OFFLINE not set) and the model cached: say so and succeed.
    @Test func cachedModelIsReportedWhenTheHubCannotBeReached() throws {
        let cache = try makeHubCache(holding: "acme/tiny-qa", at: QACommandTests.bert)
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_CACHE": cache.path, "HF_HUB_OFFLINE": ""]
        let run = try runNLU(["models", "download", "acme/tiny-qa"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == cache.appendingPathComponent("models--acme--tiny-qa/snapshots/\(hubCacheCommit)").path + "\n")
        #expect(run.stderr.contains("acme/tiny-qa: in the cache at commit \(hubCacheCommit)"), "\(run.stderr)")
        #expect(run.stderr.contains("used as it is (the Hub was not asked for changes: cannot reach http://127.0.0.1:9: connection refused"))
        let missing = try runNLU(["models", "download", "acme/other"], environment: environment)
        #expect(missing.status == 1 && missing.stderr.contains("cannot reach http://127.0.0.1:9"), "\(missing.stderr)")
    }

    /// HOME and every cache variable unset: `nlu similarity --model ORG/NAME` exited 0 printing nothing.
    @Test func noCacheFolderIsAnErrorForEveryModelLookup() throws {
        let message = "no Hugging Face cache folder to look in: HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME and HOME are all unset"
        let commands: [[String]] = [
            ["similarity", "--model", "org/name", "a", "b"],
            ["embed", "--model", "org/name", "a text"],
            ["qa", "ask", "--model", "org/name", "--question", "Who?", "--context", "Ann."],
            ["tokenize", "--model", "org/name", "some text"],
            ["models", "list"],
            ["models", "download", "org/name"],
        ]
        for arguments in commands {
            // `env -i`: nothing inherited, so HOME and the cache variables are unset, not empty.
            let run = try runNLU(arguments, launcher: ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HF_ENDPOINT=http://127.0.0.1:9"])
            #expect(run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
    }
}
