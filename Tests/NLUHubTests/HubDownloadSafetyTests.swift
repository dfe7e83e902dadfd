import Foundation
import NLUCore
import Testing
@testable import NLUHub

/// Where the Hub token may go, and downloads refused up front because no retry could make them work:
/// a redirect to a `file:` URL, a declared size no disk holds, a revision that would leave `refs/`.
@Suite struct HubDownloadSafetyTests {
    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// HF_ENDPOINT on one port redirecting an LFS file to another port of the same host: the second server
    /// must not see the token (a host comparison alone sent it there).
    @Test func tokenStaysWithTheEndpointsOriginOnARedirectToAnotherPort() async throws {
        let (hub, base, cache) = try await HubDownloaderTests.setUp(token: "hf_secret")
        defer { try? FileManager.default.removeItem(at: cache) }
        let storage = HubTestServer()
        storage.add("org/model", HubDownloaderTests.repository())
        try await storage.start()
        hub.cdn = storage.endpoint   // http://127.0.0.1:OTHER_PORT
        let result = try await base.download(HubModelID("org/model")!)
        await hub.stop()
        await storage.stop()
        #expect(try Data(contentsOf: result.snapshot.appendingPathComponent("model.safetensors")) == HubDownloaderTests.weights)
        let stored = storage.requests
        #expect(stored.contains { $0.path == "/cdn/org/model/model.safetensors" && $0.method == "GET" })
        #expect(stored.allSatisfy { $0.authorization == nil }, "\(stored)")
        #expect(hub.requests.allSatisfy { $0.authorization == "Bearer hf_secret" })
    }

    @Test func originIsSchemeHostAndPort() {
        func origin(_ text: String) -> HTTPOrigin { HTTPOrigin(URL(string: text)!) }
        #expect(origin("https://huggingface.co/a") == origin("https://HuggingFace.co:443/b"))
        #expect(origin("http://127.0.0.1/a") == origin("http://127.0.0.1:80/b"))
        #expect(origin("http://127.0.0.1:8080/a") != origin("http://127.0.0.1:8081/a"))
        #expect(origin("http://hf.co:443/a") != origin("https://hf.co/a"))
        #expect(!origin("file:///etc/passwd").isHTTP)
    }

    /// A followed redirect (the storage answering 302) keeps the token only on the request's own origin.
    @Test func followedRedirectToAnotherPortDropsTheToken() async throws {
        let first = HubTestServer(), second = HubTestServer()
        try await first.start()
        try await second.start()
        first.redirect("/moved", to: second.endpoint.absoluteString + "/here")
        let transport = HTTPTransport(stallTimeout: 10, deadline: nil)
        let head = try await transport.get(first.endpoint.appendingPathComponent("moved"), headers: ["Authorization": "Bearer hf_secret"],
                                           limit: 1 << 20).0
        #expect(head.url.port == second.port)
        await first.stop()
        await second.stop()
        #expect(second.requests.map(\.path) == ["/here"])
        #expect(second.requests.allSatisfy { $0.authorization == nil })
    }

    /// The Hub's HEAD redirecting a file to `file:///…`: refused naming the location, no "run again to resume".
    @Test func redirectOfAFileToAFileURLIsRefusedWithoutAResumeHint() async throws {
        let (server, downloader, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.locate("model.safetensors", at: "file:///etc/passwd")
        let error = await #expect(throws: HubError.self) { try await downloader.download(HubModelID("org/model")!) }
        await server.stop()
        guard case let .invalidResponse(_, reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason == "the file is redirected to 'file:///etc/passwd', not an http(s) URL")
        #expect(error?.description.contains("resume") == false)
        #expect(!server.requests.contains { $0.method == "GET" && $0.path.contains("model.safetensors") })
    }

    /// A declared size of 2^62 bytes: refused before a byte is fetched, naming the size and the cache.
    @Test func declaredSizeNoDiskHoldsIsRefusedUpFront() async throws {
        let (server, downloader, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        server.declare("model.safetensors", size: 1 << 62)
        let error = await #expect(throws: HubError.self) { try await downloader.download(HubModelID("org/model")!) }
        await server.stop()
        guard case let .tooLarge(file, size, available, named)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(file == "model.safetensors" && size == 1 << 62 && available < size && named == cache.path)
        #expect(error?.description.contains("resume") == false)
        #expect(error?.description.contains("4611686018427387904 bytes") == true)
        #expect(!server.requests.contains { $0.path.hasPrefix("/cdn/") })
        let blobs = cache.appendingPathComponent("models--org--model/blobs")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: blobs.path)) ?? []).allSatisfy { !$0.hasSuffix(".incomplete") })
    }

    /// `ORG/NAME@/abs/path` wrote `refs/abs/path` in the cache while `--revision /abs` was refused: one rule for both.
    @Test func revisionsThatLeaveRefsAreRefusedInEitherSpelling() async throws {
        for bad in ["/abs/path", "", "..", "a/../b", "a//b", "a/", ".hidden", "a/.b", "a b", "a\\b", "a\u{7}", "a:b", "~x"] {
            #expect(!HubModelID.isValidRevision(bad), "\(bad)")
            #expect(HubModelID("org/model@" + bad) == nil, "\(bad)")
        }
        for good in ["main", "v1.0", "refs/pr/1", "0123456789abcdef0123456789abcdef01234567", "feature_x-2"] {
            #expect(HubModelID.isValidRevision(good), "\(good)")
            #expect(HubModelID("org/model@" + good)?.revision == good)
        }
        // The downloader checks again: HubModelID's revision is a settable property.
        let (server, downloader, cache) = try await HubDownloaderTests.setUp()
        defer { try? FileManager.default.removeItem(at: cache) }
        var id = HubModelID("org/model")!
        id.revision = "/abs/path"
        await #expect(throws: HubError.invalidRevision("/abs/path")) { try await downloader.download(id) }
        await server.stop()
        #expect(server.requests.isEmpty)
        #expect(!exists(cache))
    }
}
