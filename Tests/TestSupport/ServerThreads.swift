import Foundation

/// Threads of their own for the tasks of an HTTP server that a test runs in its own process.
///
/// Swift Testing runs synchronous tests (a training run, a child `nlu` process waited for) on the
/// same cooperative pool, one thread per core, that the server's tasks would use. On 2 cores two such
/// tests starve the server for as long as they block, and its requests time out (seen in a loaded CI
/// run: every server test failed after 867 s). With this executor preferred by the server's task,
/// Hummingbird's connection tasks (structured children) inherit it and never wait for the pool.
public final class ServerThreads: TaskExecutor, @unchecked Sendable {
    public static let shared = ServerThreads(count: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []   // guarded by `condition`

    private init(count: Int) {
        for _ in 0..<count {
            // The threads live as long as the test process, as the shared instance does.
            Thread.detachNewThread { [self] in runJobs() }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
