/// Why an HTTP exchange failed below HTTP, sorted by what can help: a retry (the connection failed,
/// dropped or stalled) or not (a redirect to a `file:` URL, an answer too large, a passed deadline).
/// ``HubDownloader`` says "run the same command again to resume" only for what a retry can fix.
struct HTTPTransportError: Error, Equatable {
    enum Kind: Equatable {
        /// No connection, a cut one, a timeout of the connection itself.
        case network
        /// Less than ``TransferWatchdog/progressUnit`` bytes arrived in this many seconds.
        case stalled(seconds: Double)
        /// The download's overall deadline, this many seconds after it started, passed.
        case deadline(seconds: Double)
        /// Something no retry changes: a redirect to another scheme, an answer over its size limit,
        /// a URL the client cannot fetch.
        case refused
    }

    var kind: Kind
    var reason: String

    /// True when the same request may succeed if made again (what ``HubDownloader`` resumes).
    var isRetryable: Bool {
        switch kind {
        case .network, .stalled: return true
        case .deadline, .refused: return false
        }
    }
}
