import Foundation
import Testing

/// The test server must answer while every thread of the cooperative pool is blocked, as they are when
/// synchronous tests (trainings, child processes) run beside the server tests on a small machine.
@Suite("Server threads")
struct ServerThreadsTests {
    @Test func serverAnswersWhileTheCooperativePoolIsBlocked() async throws {
        try await withTestServer { server in
            let port = server.port
            let blockSeconds = 3.0
            let answered = AnsweredAt()
            let start = Date()
            // Fill every pool thread with a blocking sleep, then ask from a thread of our own.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                    group.addTask { blockThisThread(seconds: blockSeconds) }
                }
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 0.2)   // let the sleepers take the threads first
                    let status = (try? blockingGet(port: port, "/health"))?.status
                    answered.set(status: status, after: Date().timeIntervalSince(start))
                }
            }
            // Served from the pool, the answer could only come after the sleepers end.
            let (status, seconds) = try await answered.wait()
            #expect(status == 200)
            #expect(seconds < blockSeconds, "answered after \(seconds) s, the pool was blocked for \(blockSeconds) s")
        }
    }
}

/// Sleeps holding the calling thread (what a synchronous test does to a pool thread).
private func blockThisThread(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }

private func blockingGet(port: Int, _ path: String) throws -> RawHTTPResponse {
    let connection = try RawHTTPConnection(port: port)
    connection.sendRequest("GET", path, headers: [:], body: nil)
    return try connection.readResponse()
}

/// The answer's status and time, set by the asking thread.
private final class AnsweredAt: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: (status: Int?, seconds: Double)?   // guarded by `condition`

    func set(status: Int?, after seconds: Double) {
        condition.lock()
        result = (status, seconds)
        condition.broadcast()
        condition.unlock()
    }

    func wait() async throws -> (Int?, Double) {
        try await offThePool {
            self.condition.lock()
            defer { self.condition.unlock() }
            while self.result == nil { self.condition.wait() }
            return self.result ?? (nil, 0)
        }
    }
}
