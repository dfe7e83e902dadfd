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
        try admit()
        defer { leave() }
        return try await threads.runIfActive(timed(task: task, body))
    }

    /// ``run(task:_:)`` for a caller that does not await (``EncoderBatcher``, whose batches must not
    /// wait for a thread of the concurrency pool): `completion` gets the result on the worker thread,
    /// or at once on the calling thread when the queue is full (``APIError/busy``).
    func submit<T: Sendable>(task: String, _ body: @escaping @Sendable () throws -> T,
                             completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        do { try admit() } catch {
            completion(.failure(error))
            return
        }
        let timedBody = timed(task: task, body)
        threads.submit { [self] state in
            let result: Result<T, any Error> = state == .active ? Result(catching: timedBody) : .failure(CancellationError())
            leave()
            completion(result)
        }
    }

    /// Counts one more call, or throws ``APIError/busy`` when `workers + maxQueued` are running or waiting.
    private func admit() throws {
        let admitted = pending.withLockedValue { count -> Int? in
            guard count < capacity else { return nil }
            count += 1
            return count
        }
        guard let depth = admitted else { throw APIError.busy }
        metrics.recordQueueDepth(depth)
    }

    private func leave() {
        metrics.recordQueueDepth(pending.withLockedValue { $0 -= 1; return $0 })
    }

    /// `body` as a worker runs it: failing instead once the server stops its queued calls, timed under `task`.
    private func timed<T>(task: String, _ body: @escaping @Sendable () throws -> T) -> @Sendable () throws -> T {
        let metrics = self.metrics, stopped = self.stopped
        return {
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
