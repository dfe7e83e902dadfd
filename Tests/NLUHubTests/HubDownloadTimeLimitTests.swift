import Foundation
import NLUCore
import Testing
@testable import NLUHub

/// The stall timeout and the deadline against a server that trickles (one byte now and then, which kept
/// URLSession's idle timeout from ever firing), and the cached snapshot used when the Hub cannot be reached.
@Suite struct HubDownloadTimeLimitTests {
    /// A downloader on `base`'s server and cache with these limits and no in-call retry.
    private func limited(_ base: HubDownloader, stall: Double, deadline: Double? = nil) -> HubDownloader {
        var configuration = base.configuration
        configuration.stallTimeout = stall
        configuration.deadline = deadline
        var downloader = HubDownloader(configuration: configuration)
        downloader.retries = 0
        return downloader
    }

    @Test func tricklingServerFailsAtTheStallTimeoutNamingFileHostAndLimit() async throws {
        let (server, base, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.trickle("model.safetensors", every: .milliseconds(200))   // 5000 bytes would take 1000 s
        let started = ContinuousClock.now
        let error = await #expect(throws: HubError.self) { try await limited(base, stall: 2).download(HubModelID("org/model")!) }
        let took = ContinuousClock.now - started
        await server.stop()
        guard case let .stalled(file, host, seconds, received)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(file == "model.safetensors" && host == "localhost" && seconds == 2)
        #expect(received > 0 && received < 100)
        #expect(error?.description.contains("no progress from localhost for 2 s") == true, "\(error!)")
        #expect(error?.description.contains("run the same command again to resume") == true)
        // Only catches a hang (the trickle alone would take 1000 s); wide because a full parallel suite on a
        // busy 2-core machine delays the 2 s stall's detection by tens of seconds.
        #expect(took < .seconds(300))
        // The bytes received are kept for the next run.
        let part = cache.appendingPathComponent("models--org--model/blobs/\(HubDownloaderTests.sha256(HubDownloaderTests.weights)).incomplete")
        #expect(try Data(contentsOf: part) == HubDownloaderTests.weights.prefix(Int(received)))
    }

    @Test func deadlineEndsADownloadThatStillMakesProgress() async throws {
        let (server, base, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.trickle("model.safetensors", every: .milliseconds(200))
        let error = await #expect(throws: HubError.self) {
            try await limited(base, stall: 60, deadline: 4).download(HubModelID("org/model")!)
        }
        await server.stop()
        guard case let .deadlineExceeded(file, host, seconds, _)? = error else { Issue.record("\(String(describing: error))"); return }
        // Normally the trickled weights are what the deadline cuts; on a machine loaded enough that the small files
        // before them take 4 s, one of those is: the deadline covers the whole download either way.
        // The endpoint is 127.0.0.1, the weights' redirect goes to localhost: either may be where the deadline falls.
        #expect(["localhost", "127.0.0.1"].contains(host) && seconds == 4, "\(error!)")
        #expect(error?.description.contains("deadline (--deadline) passed") == true, "\(error!)")
        if file == "model.safetensors" {
            #expect(error?.description.contains("passed while receiving it from \(host)") == true, "\(error!)")
        }
        #expect(server.requests.filter { $0.path == "/cdn/org/model/model.safetensors" && $0.method == "GET" }.count <= 1)
    }

    @Test func timeLimitsAreReadAndChecked() throws {
        let home = ["HOME": "/nonexistent-home"]
        #expect(try HubConfiguration(environment: home).stallTimeout == HubConfiguration.defaultStallTimeout)
        #expect(try HubConfiguration(environment: home).deadline == nil)
        #expect(try HubConfiguration(environment: ["HF_HUB_DOWNLOAD_TIMEOUT": "2.5", "HOME": "/h"]).stallTimeout == 2.5)
        #expect(throws: HubError.invalidTimeLimit(setting: "HF_HUB_DOWNLOAD_TIMEOUT", value: "soon")) {
            try HubConfiguration(environment: ["HF_HUB_DOWNLOAD_TIMEOUT": "soon", "HOME": "/h"])
        }
        for bad in ["0", "-1", "nan", "inf", "1e7", ""] {
            #expect(throws: HubError.invalidTimeLimit(setting: "--deadline", value: bad)) { try HubConfiguration.timeLimit(bad, setting: "--deadline") }
        }
        #expect(try HubConfiguration.timeLimit("0.25", setting: "--deadline") == 0.25)
    }

    /// The Hub unreachable and the revision cached: the cached snapshot is the answer, saying why (as
    /// huggingface_hub's snapshot_download falls back); a model not cached still fails naming the server.
    @Test func cachedModelIsUsedWhenTheHubCannotBeReached() async throws {
        let (server, online, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        let downloaded = try await online.download(HubModelID("org/model")!)
        await server.stop()   // the port now refuses connections
        let result = try await online.download(HubModelID("org/model")!)
        #expect(result.snapshot.standardizedFileURL == downloaded.snapshot.standardizedFileURL)
        #expect(result.offline && result.bytesReceived == 0 && result.commit == HubDownloaderTests.commit)
        #expect(result.unreachableReason?.hasPrefix("cannot reach \(server.endpoint.absoluteString)") == true,
                "\(String(describing: result.unreachableReason))")
        await #expect {
            try await online.download(HubModelID("org/other")!)
        } throws: { error in
            guard case .unreachable? = error as? HubError else { return false }
            return true
        }
    }
}
