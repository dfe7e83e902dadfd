import NIOCore

/// The server is stopping and its grace period (`--grace-period`) ended before this request could
/// be served: its body was still arriving (``RequestDeadlineHandler`` sends this error into the body
/// stream), or it was still waiting for an inference worker (``InferencePool``).
struct ServerStoppingError: Error, CustomStringConvertible {
    /// The grace period, as the user wrote it (`5`, `0.5`).
    var seconds: String

    init(gracePeriod: TimeAmount) {
        seconds = TimeAmount.secondsText(gracePeriod)
    }

    var description: String { "the server stopped before this request was served (grace period \(seconds) s)" }
}

extension APIError {
    /// 503 with `Connection: close`: a stopping server's answer to a request it will not serve;
    /// another instance can (the request never reached a model).
    static func stopping(_ error: ServerStoppingError) -> APIError {
        APIError(status: .serviceUnavailable, error: "stopping",
                 message: "the server is shutting down and did not serve this request within its --grace-period of \(error.seconds) seconds; retry on another instance",
                 headers: [.connection: "close"])
    }
}

extension TimeAmount {
    /// Whole seconds without a fraction (`30`), others as they are (`0.5`), as a user writes them.
    static func secondsText(_ amount: TimeAmount) -> String {
        let value = Double(amount.nanoseconds) / 1e9
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
