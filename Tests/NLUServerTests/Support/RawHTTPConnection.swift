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

/// Runs blocking socket I/O on a new thread. The tests' async functions run on the same small
/// cooperative pool (one thread per core) as the in-process server: a test blocked in recv() on a
/// pool thread would starve the very server it waits for.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

private func blockingRequest(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                 json: String? = nil, readTimeout: Double) throws -> RawHTTPResponse {
    let connection = try RawHTTPConnection(port: port, readTimeout: readTimeout)
    var headers = headers
    if json != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
    connection.sendRequest(method, path, headers: headers, body: json.map { Array($0.utf8) })
    return try connection.readResponse()
}
