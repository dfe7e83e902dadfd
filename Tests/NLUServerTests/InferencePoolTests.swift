import Foundation
import NIOCore
import Testing
@testable import NLUServer

/// The inference pool of a stopping server: when the grace period ends, calls still queued fail
/// with 503 instead of running, so stopping waits only for the calls already running.
@Suite struct InferencePoolTests {
    @Test func callsStillQueuedWhenTheGracePeriodEndsFailInsteadOfRunning() async throws {
        let pool = InferencePool(workers: 1, maxQueued: 4, metrics: ServerMetrics(models: []))
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let running = Task { try await pool.run(task: "test") { started.signal(); release.wait(); return 1 } }
        try await offThePool { started.wait() }
        let queued = Task { try await pool.run(task: "test") { 2 } }
        pool.stopQueuedCalls(ServerStoppingError(gracePeriod: .milliseconds(500)))
        release.signal()
        #expect(try await running.value == 1)
        await #expect(throws: ServerStoppingError.self) { try await queued.value }
        let answer = APIError.stopping(ServerStoppingError(gracePeriod: .milliseconds(500)))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.message.contains("--grace-period of 0.5 seconds"))
        try await pool.shutdown()
    }
}
