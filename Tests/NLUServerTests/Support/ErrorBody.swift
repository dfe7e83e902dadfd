import Foundation

extension RawHTTPResponse {
    /// The `message` of a JSON error body (empty when there is none), as a plain value: inside
    /// `#expect`, `(x as? String ?? "").hasPrefix(...)` is expanded to an optional call whose result is dropped.
    var errorMessage: String { object?["message"] as? String ?? "" }
}
