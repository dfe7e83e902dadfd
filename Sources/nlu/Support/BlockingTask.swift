import Foundation

/// Runs async work from a synchronous command (the root command is synchronous) and waits for it:
/// the main thread blocks while the work runs on the concurrency pool.
enum BlockingTask {
    static func run(_ body: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await body() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    /// The error, written by the task before it signals and read after the wait.
    private final class Outcome: @unchecked Sendable {
        var error: (any Error)?
    }
}
