import Foundation
import Testing

/// The test server must answer while every thread of the cooperative pool is blocked, as they are when
/// synchronous tests (trainings, child processes) run beside the server tests on a small machine.
@Suite("Server threads")
struct ServerThreadsTests {
    /// Each pool thread is held until the requests are answered: a server that needed the pool could not
    /// answer them, and each read would give up after its timeout instead (a failure, not a hang). Asked: a
    /// plain route, the batched routes (their window timers and inference workers), and a parse request
    /// beside a worker held at the tokenizer, the way the connection tests hold one.
    @Test func serverAnswersWhileTheCooperativePoolIsBlocked() async throws {
        let (models, probe) = try TokenizerProbe.servedModels(holding: "hold the worker")
        let classifier = try #require(models.intents)
        try await withTestServer(models: models) { server in
            let port = server.port
            let threads = ProcessInfo.processInfo.activeProcessorCount
            let taken = DispatchSemaphore(value: 0), answered = DispatchSemaphore(value: 0)
            let asking = StartedThread {
                // Once every pool thread is taken, however long other tests hold them first; after 10 minutes the
                // requests go out all the same (a pool narrower than the core count would otherwise hang the test).
                let deadline = DispatchTime.now() + .seconds(600)
                for _ in 0..<threads { _ = taken.wait(timeout: deadline) }
                defer { for _ in 0..<threads { answered.signal() } }
                let parse = #"{"text": "turn on the radio"}"#
                let health = try blockingRequest(port: port, "GET", "/health", readTimeout: 60)
                let parsed = try blockingRequest(port: port, "POST", "/model/parse", json: parse, readTimeout: 60)
                let embedded = try blockingRequest(port: port, "POST", "/embed", json: #"{"inputs": ["a short text"]}"#, readTimeout: 60)
                let (beside, held) = try probe.holdingAWorker(port: port) {
                    try blockingRequest(port: port, "POST", "/model/parse", json: parse, readTimeout: 60)
                }
                return [health, parsed, embedded, beside, held]
            }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threads { group.addTask { holdThisThread(signalling: taken, until: answered) } }
            }
            let responses = try await asking.value()
            #expect(responses.map(\.status) == [200, 200, 200, 200, 200], "\(responses.map(\.text))")
            let intent = classifier.predict("turn on the radio").intent
            #expect(responses[1].intentName == intent && responses[3].intentName == intent)
            #expect((responses[2].json as? [[Double]])?.count == 1)
        }
    }
}

/// Says this thread is taken, then holds it until `answered` (what a synchronous test does to a pool thread).
private func holdThisThread(signalling taken: DispatchSemaphore, until answered: DispatchSemaphore) {
    taken.signal()
    answered.wait()
}

private extension RawHTTPResponse {
    /// The intent a `/model/parse` answer names.
    var intentName: String? { (object?["intent"] as? [String: Any])?["name"] as? String }
}
