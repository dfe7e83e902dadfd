import Foundation
import Testing
@testable import NLUServer

/// Slow clients, keep-alive, a full queue and stopping with requests in flight.
@Suite("Connections")
struct ConnectionTests {
    /// Sends `first`, then `dribble` every 100 ms for up to `seconds`, all on a thread of its own;
    /// true when the server closed the connection while the client was still sending. No wall-clock
    /// bound beyond that: the server's deadline is far shorter, so a busy machine cannot flip the result.
    static func closedWhileDribbling(port: Int, first: String, dribble: String, seconds: Double = 15) async throws -> Bool {
        try await offThePool {
            let connection = try RawHTTPConnection(port: port, readTimeout: 0.1)
            connection.send(first)
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if !connection.send(dribble) { return true }     // reset by the server
                if connection.waitForClose() { return true }     // end of stream within the 0.1 s read
            }
            return false
        }
    }

    @Test func clientSendingItsHeadTooSlowlyIsDisconnected() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.5 }) { server in
            // Header bytes keep coming: activity must not extend the deadline.
            let closed = try await Self.closedWhileDribbling(port: server.port, first: "POST /model/parse HTTP/1.1\r\nHost: x\r\n",
                                                             dribble: "X-Slow: a\r\n")
            #expect(closed)
        }
    }

    @Test func clientSendingItsBodyTooSlowlyIsDisconnected() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.5 }) { server in
            let closed = try await Self.closedWhileDribbling(
                port: server.port, first: "POST /model/parse HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{\"text\":", dribble: " ")
            #expect(closed)
        }
    }

    @Test func keptAliveConnectionAnswersSeveralRequestsThenIdlesOut() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 2 }) { server in
            let port = server.port
            let (statuses, closed) = try await offThePool {
                let connection = try RawHTTPConnection(port: port, readTimeout: 30)
                var statuses: [Int] = []
                for _ in 0..<3 {
                    connection.sendRequest("POST", "/model/parse", body: Array(#"{"text": "turn on the radio"}"#.utf8), close: false)
                    statuses.append(try connection.readResponse().status)
                }
                return (statuses, connection.waitForClose())
            }
            #expect(statuses == [200, 200, 200])
            #expect(closed)
        }
    }

    @Test func fullQueueAnswers503InsteadOfWaiting() async throws {
        // One worker and no queue: while an embeddings request holds the worker (its tokenizer waits
        // for the test), a parse request is refused at once. A server that queued it instead leaves it
        // unanswered until the client's 60 s read timeout fails the test (the hold is then released).
        // The hold, the parse request and the release run on one thread of the test's own, so no other
        // test holding the concurrency pool can stretch the hold past the probe's bound.
        let (models, probe) = try TokenizerProbe.servedModels(holding: "hold the worker")
        try await withTestServer(models: models, configure: { $0.workers = 1; $0.maxQueuedRequests = 0 }) { server in
            let port = server.port
            let (response, held) = try await offThePool {
                try probe.holdingAWorker(port: port) {
                    try blockingRequest(port: port, "POST", "/model/parse", json: #"{"text": "turn on the radio"}"#, readTimeout: 60)
                }
            }
            let refused: RawHTTPResponse? = response.status == 503 ? response : nil
            let busy = try #require(refused, "answered \(response.status): \(response.text)")
            #expect(busy.object?["error"] as? String == "busy")
            #expect(busy.headers["retry-after"] == "1")
            // The request holding the worker is answered once it goes on.
            #expect(held.status == 200)
        }
    }

    @Test func portInUseIsReportedWithTheAddress() async throws {
        try await withTestServer { first in
            do {
                let second = try await TestServer.start { $0.port = first.port }
                await second.stop()
                Issue.record("a second server bound the same port")
            } catch let error as ServerBindError {
                #expect(error.description == "cannot listen on 127.0.0.1:\(first.port): the port is already in use (another server? pick one with --port)")
            }
        }
    }

    @Test func settingsOutOfRangeAreRefusedBeforeBinding() throws {
        var configuration = ServerConfiguration()
        configuration.workers = 0
        #expect(throws: ServerConfigurationError(setting: "workers", expected: "1...1024", got: "0")) {
            try configuration.validate()
        }
        configuration = ServerConfiguration()
        configuration.port = 70_000
        #expect(throws: ServerConfigurationError(setting: "port", expected: "0...65535", got: "70000")) {
            try configuration.validate()
        }
        configuration = ServerConfiguration()
        configuration.requestTimeout = .nan
        #expect(throws: ServerConfigurationError.self) { try configuration.validate() }
        configuration = ServerConfiguration()
        configuration.gracePeriod = -1
        #expect(throws: ServerConfigurationError(setting: "grace period", expected: "0 ... 86400 seconds", got: "-1.0")) {
            try configuration.validate()
        }
        // The request limits, named as their flags (--max-qa-windows, --max-embed-tokens, ...) name them.
        #expect(ServerConfiguration().maxQuestionAnsweringWindows == 32 && ServerConfiguration().maxEmbeddingTokens == 65_536)
        #expect(ServerConfiguration().maxEmbeddingTexts == 2048 && ServerConfiguration().maxTextLength == 100_000)
        let limits: [(WritableKeyPath<ServerConfiguration, Int>, Int, ServerConfigurationError)] = [
            (\.maxQuestionAnsweringWindows, 0, ServerConfigurationError(setting: "max qa windows", expected: "1...100000", got: "0")),
            (\.maxEmbeddingTokens, 100_000_001,
             ServerConfigurationError(setting: "max embed tokens", expected: "1...100000000", got: "100000001")),
            (\.maxEmbeddingTexts, 0, ServerConfigurationError(setting: "max embed texts", expected: "1...1000000", got: "0")),
            (\.maxTextLength, 0, ServerConfigurationError(setting: "max text length", expected: "1...100000000", got: "0")),
        ]
        for (setting, value, error) in limits {
            var limited = ServerConfiguration()
            limited[keyPath: setting] = value
            #expect(throws: error) { try limited.validate() }
        }
    }
}
