import Foundation
import Testing
@testable import NLUServer

/// Slow clients, keep-alive, a full queue and stopping with requests in flight.
@Suite("Connections")
struct ConnectionTests {
    @Test func clientSendingItsHeadTooSlowlyIsDisconnected() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.3 }) { server in
            let connection = try RawHTTPConnection(port: server.port, readTimeout: 3)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\n")
            let start = Date()
            // Keep dribbling header bytes: activity must not extend the deadline.
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(100))
                connection.send("X-Slow: a\r\n")
            }
            let closed = await connection.closes()
            #expect(closed)
            #expect(Date().timeIntervalSince(start) < 2)
        }
    }

    @Test func clientSendingItsBodyTooSlowlyIsDisconnected() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.3 }) { server in
            let connection = try RawHTTPConnection(port: server.port, readTimeout: 3)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text\":")
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(100))
                connection.send(" ")
            }
            let closed = await connection.closes()
            #expect(closed)
        }
    }

    @Test func keptAliveConnectionAnswersSeveralRequestsThenIdlesOut() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.5 }) { server in
            let connection = try RawHTTPConnection(port: server.port, readTimeout: 3)
            for _ in 0..<3 {
                connection.sendRequest("POST", "/model/parse", body: Array(#"{"text": "turn on the radio"}"#.utf8), close: false)
                let response = try await connection.response()
                #expect(response.status == 200)
            }
            let closed = await connection.closes()
            #expect(closed)
        }
    }

    @Test func fullQueueAnswers503InsteadOfWaiting() async throws {
        // One worker and no queue: while a long QA request holds the worker, a parse request is refused.
        try await withTestServer(configure: { $0.workers = 1; $0.maxQueuedRequests = 0 }) { server in
            let port = server.port
            let context = String(repeating: "Alice went to Paris on Monday with her friend Bob. ", count: 100)
            let body = try jsonString(["question": "Who went to Paris?", "context": context])
            let slow = Task.detached {
                try await offThePool {
                    let connection = try RawHTTPConnection(port: port, readTimeout: 120)
                    connection.sendRequest("POST", "/question-answering", body: Array(body.utf8))
                    return try connection.readResponse()
                }
            }
            var refused: RawHTTPResponse?
            for _ in 0..<200 where refused == nil {
                try await Task.sleep(for: .milliseconds(5))
                let response = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#)
                if response.status == 503 { refused = response }
            }
            let busy = try #require(refused)
            #expect(busy.object?["error"] as? String == "busy")
            #expect(busy.headers["retry-after"] == "1")
            let slowResponse = try await slow.value
            #expect(slowResponse.status == 200)
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
    }
}
