import Foundation
import NLUTestSupport

// The raw connection is shared with CLITests (which drive `nlu serve` as a process); these names keep
// this target's files free of an import each.
typealias RawHTTPConnection = NLUTestSupport.RawHTTPConnection
typealias RawHTTPResponse = NLUTestSupport.RawHTTPResponse
typealias RawHTTPError = NLUTestSupport.RawHTTPError

/// One request on a fresh connection, made on a thread of its own (see ``offThePool(_:)``).
/// `readTimeout` bounds each wait for the answer's bytes.
func httpRequest(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                 json: String? = nil, readTimeout: Double = 10) async throws -> RawHTTPResponse {
    try await offThePool { try blockingRequest(port: port, method, path, headers: headers, json: json, readTimeout: readTimeout) }
}

extension RawHTTPConnection {
    /// ``readResponse()`` off the concurrency pool.
    func response() async throws -> RawHTTPResponse { try await offThePool { try self.readResponse() } }
    /// ``waitForClose()`` off the concurrency pool.
    func closes() async -> Bool { (try? await offThePool { self.waitForClose() }) ?? false }
}

/// Runs blocking socket I/O on a new thread. The tests' async functions run on a small cooperative
/// pool (one thread per core) shared with every other test: a test blocked in recv() on a pool thread
/// holds one of the few threads the rest of the suite needs.
///
/// Only the body runs off the pool: the test resumes when a pool thread is free, which can take
/// minutes while synchronous tests (child processes waited for, trainings) hold them all. A stretch
/// that must not be interrupted (a worker held, then released) goes in one body.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// One request on a fresh connection, on the calling thread.
func blockingRequest(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                     json: String? = nil, readTimeout: Double = 10) throws -> RawHTTPResponse {
    let connection = try RawHTTPConnection(port: port, readTimeout: readTimeout)
    var headers = headers
    if json != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
    connection.sendRequest(method, path, headers: headers, body: json.map { Array($0.utf8) })
    return try connection.readResponse()
}

/// A body run at once on a thread of its own; ``join()`` or ``value()`` waits for its result.
///
/// Work a test starts in a task only begins once a thread of the cooperative pool runs that task, which
/// synchronous tests may hold for minutes. A request the test relies on being in flight (holding a worker
/// while the test goes on, or arriving with others within a batch window) is sent from one of these.
///
///     let held = StartedThread { try blockingRequest(port: port, "POST", "/embed", json: body, readTimeout: 60) }
///     let response = try await held.value()
final class StartedThread<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?   // written once, before `finished` is signalled

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            result = Result { try body() }
            finished.signal()
        }
    }

    /// Waits for the result, blocking the calling thread (so, off the pool: in ``offThePool(_:)``).
    func join() throws -> Value {
        finished.wait()
        finished.signal()   // for the next caller
        guard let result else { throw RawHTTPError(description: "the thread ended without a result") }
        return try result.get()
    }

    /// Waits for the result without holding a thread of the pool.
    func value() async throws -> Value {
        try await offThePool { try self.join() }
    }
}
