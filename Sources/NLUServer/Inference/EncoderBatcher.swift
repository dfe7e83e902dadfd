import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Gathers the encoder work of concurrent requests into one batched call on the ``InferencePool``, so
/// that 64 clients of one sentence each cost a few encoder passes over 32 sentences instead of 64
/// passes over one: a small model's weights are read once per pass, not once per sentence.
///
/// One batcher serves one model (it is made with that model's `process` closure), so batches never mix
/// models. A request joins the queue with its input and its `size` (texts); a batch is the
/// oldest requests whose sizes add up to at most `maxBatch` (a request larger than
/// that runs alone). A batch starts when
/// - a batch slot is free (at most `slots` batches run at once, one per inference worker) and either
///   `window` has passed since the first request of the queue found a slot free,
///   or the queue holds a whole batch;
/// - a running batch finishes and requests are waiting: they have waited already.
///
/// So under load batches form while the encoder is busy and the window only delays a request that
/// finds the server idle. Back-pressure is the pool's: past `maxQueued` waiting requests (beyond those
/// the free slots' next batches take) the next is refused at once with 503 ``APIError/busy``; a request still waiting when its `deadline` has passed
/// (the server's `--timeout`, counted from when it joined) is answered 503 ``APIError/encoderQueueTimeout(seconds:)``
/// when the next batch forms instead of running; a stopping server's queued batches fail as the pool's
/// queued calls do (``InferencePool/stopQueuedCalls(_:)``).
///
///     let batcher = EncoderBatcher<String, [Float]>(task: "embeddings", window: .milliseconds(2), maxBatch: 64, slots: 2,
///                                                    maxQueued: 1024, deadline: .seconds(30), pool: pool, metrics: metrics) { texts in
///         texts.map { text in Result { try embedder.embed(text) } }   // one Result per input, in order
///     }
///     let vector = try await batcher.submit("a sentence", size: 1)
final class EncoderBatcher<Input: Sendable, Output: Sendable>: Sendable {
    /// Runs one batch: one result per input, in order. A failure of one input's own (a text over a
    /// limit) is that input's result; an error for all of them may be every result.
    typealias Process = @Sendable ([Input]) -> [Result<Output, any Error>]

    private struct Entry: Sendable {
        var input: Input
        var size: Int
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Output, any Error>
    }

    private struct State: Sendable {
        /// Waiting requests, oldest first from `head` (entries before it are taken).
        var queue: [Entry?] = []
        var head = 0
        /// The texts of the waiting requests.
        var waitingSize = 0
        var running = 0
        /// The window timer armed for the queue's oldest request, by generation (a batch that starts
        /// for another reason makes the armed timer stale).
        var windowArmed = false
        var windowGeneration = 0

        var waiting: Int { queue.count - head }
    }

    /// What the caller of a state change does once the lock is released.
    private struct Actions {
        var batches: [[Entry]] = []
        var expired: [Entry] = []
        var armWindow: Int?
    }

    private let task: String
    private let window: TimeAmount
    private let timers: any EventLoopGroup
    private let maxBatch: Int
    private let slots: Int
    private let maxQueued: Int
    private let deadline: Duration
    private let pool: InferencePool
    private let metrics: ServerMetrics
    private let process: Process
    private let state = NIOLockedValueBox(State())

    /// A batcher for one model's `process`, recording under `task`; `slots` batches run at once on
    /// `pool`, at most `maxQueued` requests wait, each at most `deadline`; the window's timers run on `timers`.
    init(task: String, window: Duration, maxBatch: Int, slots: Int, maxQueued: Int, deadline: Duration,
         pool: InferencePool, metrics: ServerMetrics, timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
         process: @escaping Process) {
        self.task = task
        self.window = window.timeAmount
        self.timers = timers
        self.maxBatch = max(1, maxBatch)
        self.slots = max(1, slots)
        self.maxQueued = max(0, maxQueued)
        self.deadline = deadline
        self.pool = pool
        self.metrics = metrics
        self.process = process
    }

    /// The output of `input` (of `size` texts), computed in a batch with other requests' inputs.
    /// - Throws: ``APIError/busy`` when the queue is full, ``APIError/encoderQueueTimeout(seconds:)``
    ///   when the deadline passed before a batch took it, the pool's errors, or `input`'s own failure.
    func submit(_ input: Input, size: Int) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let entry = Entry(input: input, size: max(1, size), deadline: .now + deadline, continuation: continuation)
            let admitted: (actions: Actions, waiting: Int)? = state.withLockedValue { state in
                // As the pool counts `workers + maxQueued`: the requests the free slots' next batches take are not queued.
                guard state.waiting < maxQueued + (slots - state.running) * maxBatch else { return nil }
                state.queue.append(entry)
                state.waitingSize += entry.size
                var actions = Actions()
                if state.running < slots {
                    if window.nanoseconds == 0 || state.waitingSize >= maxBatch {
                        startBatches(&state, &actions)
                    } else if !state.windowArmed {
                        state.windowArmed = true
                        actions.armWindow = state.windowGeneration
                    }
                }
                return (actions, state.waiting)
            }
            guard let admitted else {
                continuation.resume(throwing: APIError.busy)
                return
            }
            metrics.recordBatchQueue(task: task, waiting: admitted.waiting)
            perform(admitted.actions)
        }
    }

    /// Requests waiting for a batch (as `nlu_encoder_batch_queue` reports them).
    var waiting: Int { state.withLockedValue { $0.waiting } }

    /// Starts batches while a slot is free and requests wait (called with the lock held).
    private func startBatches(_ state: inout State, _ actions: inout Actions) {
        state.windowArmed = false
        state.windowGeneration &+= 1
        let now = ContinuousClock.now
        while state.running < slots, state.waiting > 0 {
            var batch: [Entry] = [], size = 0
            while state.head < state.queue.count, let entry = state.queue[state.head] {
                if entry.deadline <= now {
                    actions.expired.append(entry)
                } else if batch.isEmpty || size + entry.size <= maxBatch {
                    batch.append(entry)
                    size += entry.size
                } else {
                    break
                }
                state.queue[state.head] = nil
                state.head += 1
                state.waitingSize -= entry.size
            }
            // Taken entries are dropped now and then, not at every batch: the queue stays amortized O(1).
            if state.head > 256 && state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            guard !batch.isEmpty else { continue }
            state.running += 1
            actions.batches.append(batch)
        }
    }

    private func perform(_ actions: Actions) {
        for entry in actions.expired {
            entry.continuation.resume(throwing: APIError.encoderQueueTimeout(seconds: deadline))
        }
        if let generation = actions.armWindow {
            // An event loop's timer, not a task's sleep: the batch must not wait for a thread of the
            // concurrency pool, which synchronous work elsewhere in the process may hold.
            timers.next().scheduleTask(in: window) { [self] in windowEnded(generation: generation) }
        }
        for batch in actions.batches { start(batch) }
    }

    private func windowEnded(generation: Int) {
        let actions = state.withLockedValue { state -> Actions in
            var actions = Actions()
            guard state.windowArmed, state.windowGeneration == generation else { return actions }
            startBatches(&state, &actions)
            return actions
        }
        perform(actions)
    }

    /// Runs `batch` on the pool and answers each of its requests from the worker thread.
    private func start(_ batch: [Entry]) {
        metrics.recordBatch(task: task, requests: batch.count, texts: batch.reduce(0) { $0 + $1.size })
        let inputs = batch.map(\.input), process = self.process, task = self.task
        pool.submit(task: task, { process(inputs) }) { [self] outcome in
            switch outcome {
            case .success(let results):
                for (index, entry) in batch.enumerated() {
                    // `process` answers each input; a short answer is this server's bug, not the client's.
                    entry.continuation.resume(with: index < results.count ? results[index] : .failure(EncoderBatchShortAnswer(task: task)))
                }
            case .failure(let error):
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
            finished()
        }
    }

    private func finished() {
        let (actions, waiting) = state.withLockedValue { state -> (Actions, Int) in
            state.running -= 1
            var actions = Actions()
            // Those waiting have waited a batch's time already: no window for them.
            if state.waiting > 0 { startBatches(&state, &actions) }
            return (actions, state.waiting)
        }
        metrics.recordBatchQueue(task: task, waiting: waiting)
        perform(actions)
    }
}

/// A batch's `process` gave fewer results than inputs (a bug; answered 500 and logged).
struct EncoderBatchShortAnswer: Error, CustomStringConvertible {
    var task: String
    var description: String { "the \(task) batch answered fewer results than it was given inputs" }
}

extension APIError {
    /// 503 with `Retry-After`: the request waited for the encoder until its deadline (the server's
    /// `--timeout`) without a batch taking it; the server is overloaded, as with ``busy``.
    static func encoderQueueTimeout(seconds: Duration) -> APIError {
        APIError(status: .serviceUnavailable, error: "busy",
                 message: "this request waited \(TimeAmount.secondsText(seconds.timeAmount)) s (--timeout) for the encoder without being served; "
                     + "the server is overloaded; retry shortly",
                 headers: [HTTPField.Name("Retry-After")!: "1"])
    }
}

extension Duration {
    /// The same span for NIO's timers (nanoseconds; what is finer is dropped).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
