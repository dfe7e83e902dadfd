import NIOConcurrencyHelpers
import NIOPosix

/// Runs model calls off the event loops on a fixed number of threads, so slow inference never
/// stalls accepting or reading other connections, and bounds how many requests may wait: past
/// `workers + maxQueued` the call fails at once with 503 (``APIError/busy``) instead of queueing
/// without limit.
///
/// A stopping server calls ``stopQueuedCalls(_:)`` when its grace period ends: calls still waiting
/// for a worker then fail with 503 instead of running, so stopping waits for the calls already
/// running, not for a whole queue whose clients have been disconnected.
final class InferencePool: Sendable {
    private let threads: NIOThreadPool
    private let capacity: Int
    private let pending = NIOLockedValueBox(0)
    private let stopped = NIOLockedValueBox<ServerStoppingError?>(nil)
    private let metrics: ServerMetrics

    init(workers: Int, maxQueued: Int, metrics: ServerMetrics) {
        threads = NIOThreadPool(numberOfThreads: workers)
        threads.start()
        capacity = workers + maxQueued
        self.metrics = metrics
    }

    /// Runs `body` on a worker thread and records its time under `task`.
    /// - Throws: ``APIError/busy`` when the queue is full, or what `body` throws.
    func run<T: Sendable>(task: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = pending.withLockedValue { count -> Int? in
            guard count < capacity else { return nil }
            count += 1
            return count
        }
        guard let depth = admitted else { throw APIError.busy }
        metrics.recordQueueDepth(depth)
        defer { metrics.recordQueueDepth(pending.withLockedValue { $0 -= 1; return $0 }) }
        let metrics = self.metrics, stopped = self.stopped
        return try await threads.runIfActive {
            if let error = stopped.withLockedValue({ $0 }) { throw error }
            let clock = ContinuousClock()
            let start = clock.now
            defer { metrics.recordInference(task: task, duration: clock.now - start) }
            return try body()
        }
    }

    /// Makes the calls that have not started yet, and any made later, fail with `error`.
    func stopQueuedCalls(_ error: ServerStoppingError) {
        stopped.withLockedValue { $0 = error }
    }

    /// Lets running calls finish, then stops the threads.
    func shutdown() async throws {
        try await threads.shutdownGracefully()
    }
}
