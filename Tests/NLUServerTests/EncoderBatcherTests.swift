import Foundation
import NIOCore
import NIOEmbedded
import NLUTestSupport
import Testing
@testable import NLUServer

/// The encoder batcher alone, with an encoder that records each batch and can hold the first one
/// running, so that what queues behind it is under the test's control (no timing: the tests wait for
/// the batcher's own count of waiting requests).
@Suite("Encoder batcher")
struct EncoderBatcherTests {
    /// Answers each input `n` with `10 n` (a negative one fails alone, 422); records each batch; holds
    /// the first batch until ``release()`` when made `holding`.
    final class RecordingEncoder: @unchecked Sendable {
        private let lock = NSLock()
        private var log: [[Int]] = []
        private var holding: Bool
        private let started = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)

        init(holding: Bool) { self.holding = holding }

        func process(_ inputs: [Int]) -> [Result<Int, any Error>] {
            let hold = lock.withLock { () -> Bool in
                log.append(inputs)
                defer { holding = false }
                return holding
            }
            if hold {
                started.signal()
                gate.wait()
            }
            return inputs.map { $0 < 0 ? .failure(APIError.unprocessable("input \($0)")) : .success($0 * 10) }
        }

        var batches: [[Int]] { lock.withLock { log } }
        func waitUntilHolding() async throws { try await offThePool { self.started.wait() } }
        func release() { gate.signal() }
    }

    struct Harness {
        let batcher: EncoderBatcher<Int, Int>
        let pool: InferencePool
        let metrics: ServerMetrics
        let encoder: RecordingEncoder
        /// The window's timers, on a clock that only the test advances.
        let timers: NIOAsyncTestingEventLoop

        init(window: Duration = .zero, maxBatch: Int = 64, maxQueued: Int = 100, deadline: Duration = .seconds(600), holding: Bool = true) {
            metrics = ServerMetrics(models: [])
            pool = InferencePool(workers: 1, maxQueued: 16, metrics: metrics)
            let encoder = RecordingEncoder(holding: holding)
            self.encoder = encoder
            let timers = NIOAsyncTestingEventLoop()
            self.timers = timers
            batcher = EncoderBatcher(task: "test", window: window, maxBatch: maxBatch, slots: 1, maxQueued: maxQueued, deadline: deadline,
                                     pool: pool, metrics: metrics, timers: timers) { encoder.process($0) }
        }

        /// Submits `input` from a task on threads of its own (the concurrency pool may be held by other
        /// tests' synchronous work).
        func submit(_ input: Int, size: Int = 1) -> Task<Int, any Error> {
            let batcher = self.batcher
            return Task(executorPreference: ServerThreads.shared) { try await batcher.submit(input, size: size) }
        }

        /// Submits `input` and returns once it waits in the queue (`waiting` requests then).
        func enqueue(_ input: Int, size: Int = 1, waiting: Int) async throws -> Task<Int, any Error> {
            let task = submit(input, size: size)
            let batcher = self.batcher
            try await EncoderBatcherTests.until { batcher.waiting >= waiting }
            return task
        }

        func shutdown() async throws {
            try await pool.shutdown()
            await timers.shutdownGracefully()
        }

        /// A metric's value in `/metrics`' text (the line `name value`), or nil.
        func metric(_ name: String) -> Double? {
            metrics.exposition().split(separator: "\n").first { $0.hasPrefix(name + " ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") }
        }
    }

    /// Polls `condition` (a state change, not a speed) for at most 120 s: in the whole suite, other tests'
    /// work can keep the submitting tasks' threads busy for many seconds.
    static func until(_ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(condition())
    }

    @Test func requestsArrivingWhileABatchRunsShareTheNextOneEachWithItsOwnAnswer() async throws {
        let harness = Harness()
        let first = harness.submit(0)
        try await harness.encoder.waitUntilHolding()
        var queued: [Task<Int, any Error>] = []
        for (index, input) in [1, 2, -3, 4, 5].enumerated() { queued.append(try await harness.enqueue(input, waiting: index + 1)) }
        harness.encoder.release()
        #expect(try await first.value == 0)
        for (task, input) in zip(queued, [1, 2, -3, 4, 5]) where input >= 0 { #expect(try await task.value == input * 10) }
        await #expect(throws: APIError.unprocessable("input -3")) { try await queued[2].value }
        #expect(harness.encoder.batches == [[0], [1, 2, -3, 4, 5]])
        #expect(harness.metric(#"nlu_encoder_batch_requests_count{task="test"}"#) == 2)
        #expect(harness.metric(#"nlu_encoder_batch_requests_sum{task="test"}"#) == 6)
        #expect(harness.metric(#"nlu_encoder_batch_texts_sum{task="test"}"#) == 6)
        try await harness.shutdown()
    }

    @Test func aBatchHoldsAtMostMaxBatchTextsAndALargerRequestRunsAlone() async throws {
        let harness = Harness(maxBatch: 4)
        let first = harness.submit(0)
        try await harness.encoder.waitUntilHolding()
        let sized = [(1, 3), (2, 1), (3, 2), (4, 5)]
        var queued: [Task<Int, any Error>] = []
        for (index, (input, size)) in sized.enumerated() { queued.append(try await harness.enqueue(input, size: size, waiting: index + 1)) }
        harness.encoder.release()
        _ = try await first.value
        for task in queued { _ = try await task.value }
        // 3 + 1 texts fill a batch; 2 + 5 would not fit, and 5 alone is over the limit: it runs alone.
        #expect(harness.encoder.batches == [[0], [1, 2], [3], [4]])
        #expect(harness.metric(#"nlu_encoder_batch_texts_sum{task="test"}"#) == 12)
        try await harness.shutdown()
    }

    @Test func aFullBatchStartsWithoutWaitingForTheWindow() async throws {
        // A window of an hour: the batch can only have started because it was full.
        let harness = Harness(window: .seconds(3600), maxBatch: 3, holding: false)
        let a = try await harness.enqueue(1, waiting: 1)
        let b = try await harness.enqueue(2, waiting: 2)
        let c = harness.submit(3)
        #expect(try await [a.value, b.value, c.value] == [10, 20, 30])
        #expect(harness.encoder.batches == [[1, 2, 3]])
        try await harness.shutdown()
    }

    @Test func aRequestFindingTheEncoderIdleWaitsForTheWindowThenRunsWithThoseThatCame() async throws {
        // Nothing fills the batch, so only advancing the timers' clock past the window can start it,
        // however slowly the submitting tasks get a thread.
        let harness = Harness(window: .milliseconds(2), maxBatch: 64, holding: false)
        let timers = harness.timers
        let a = try await harness.enqueue(1, waiting: 1)
        let b = try await harness.enqueue(2, waiting: 2)
        await timers.advanceTime(by: .milliseconds(1))
        #expect(harness.encoder.batches.isEmpty && harness.batcher.waiting == 2)   // still within the window
        await timers.advanceTime(by: .milliseconds(1))
        #expect(try await [a.value, b.value] == [10, 20])
        #expect(harness.encoder.batches == [[1, 2]])
        try await harness.shutdown()
    }

    @Test func aFullQueueIsRefusedWithTheServersBusyAnswer() async throws {
        let harness = Harness(maxQueued: 2)
        let first = harness.submit(0)
        try await harness.encoder.waitUntilHolding()
        let a = try await harness.enqueue(1, waiting: 1)
        let b = try await harness.enqueue(2, waiting: 2)
        await #expect(throws: APIError.busy) { try await harness.batcher.submit(3, size: 1) }
        #expect(APIError.busy.status == .serviceUnavailable)
        harness.encoder.release()
        #expect(try await [first.value, a.value, b.value] == [0, 10, 20])
        #expect(harness.encoder.batches == [[0], [1, 2]])
        try await harness.shutdown()
    }

    @Test func aRequestStillWaitingAtItsDeadlineIsAnswered503AndNeverRuns() async throws {
        let harness = Harness(deadline: .milliseconds(100))
        let first = harness.submit(0)
        try await harness.encoder.waitUntilHolding()
        let late = try await harness.enqueue(1, waiting: 1)
        try await Task.sleep(for: .milliseconds(300))   // past the queued request's deadline
        harness.encoder.release()
        #expect(try await first.value == 0)   // already running at its deadline: it finishes
        do {
            _ = try await late.value
            Issue.record("a request past its deadline was answered")
        } catch let error as APIError {
            #expect(error == APIError.encoderQueueTimeout(seconds: .milliseconds(100)))
            #expect(error.status == .serviceUnavailable && error.error == "busy")
            #expect(error.message == "this request waited 0.1 s (--timeout) for the encoder without being served; the server is overloaded; retry shortly")
        }
        #expect(harness.encoder.batches == [[0]])
        try await harness.shutdown()
    }

    @Test func requestsStillQueuedWhenTheServerStopsFailAsThePoolsDo() async throws {
        let harness = Harness()
        let first = harness.submit(0)
        try await harness.encoder.waitUntilHolding()
        let queued = try await harness.enqueue(1, waiting: 1)
        harness.pool.stopQueuedCalls(ServerStoppingError(gracePeriod: .seconds(5)))
        harness.encoder.release()
        #expect(try await first.value == 0)
        await #expect(throws: ServerStoppingError.self) { try await queued.value }
        #expect(harness.encoder.batches == [[0]])
        try await harness.shutdown()
    }

    @Test func batchingSettingsAreRangeCheckedNamingTheOption() throws {
        func error(_ change: (inout ServerConfiguration) -> Void) -> String? {
            var configuration = ServerConfiguration()
            change(&configuration)
            do {
                try configuration.validate()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(error { $0.maxBatch = 0 } == "max batch: expected 1...4096 texts (1: no batching across requests), got 0")
        #expect(error { $0.maxBatch = 4097 } == "max batch: expected 1...4096 texts (1: no batching across requests), got 4097")
        #expect(error { $0.batchWindowMilliseconds = -1 } == "batch window ms: expected 0 ... 1000 milliseconds, got -1.0")
        #expect(error { $0.batchWindowMilliseconds = 1000.5 } == "batch window ms: expected 0 ... 1000 milliseconds, got 1000.5")
        #expect(error { $0.batchWindowMilliseconds = .nan } == "batch window ms: expected 0 ... 1000 milliseconds, got nan")
        #expect(error { $0.maxBatch = 1; $0.batchWindowMilliseconds = 0 } == nil)
        #expect(error { $0.maxBatch = 4096; $0.batchWindowMilliseconds = 1000 } == nil)
        #expect(ServerConfiguration().maxBatch == 64 && ServerConfiguration().batchWindowMilliseconds == 2)
    }
}
