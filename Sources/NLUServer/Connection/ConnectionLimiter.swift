import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore

/// Bounds the connections a server holds open (``ServerConfiguration/maxConnections``), so that
/// clients opening connections and sending nothing cannot use up the process's file descriptors.
///
/// Each connection registers here (``ConnectionLimitHandler``) and says when it is idle: opened or
/// kept alive with no request in progress. When more than `maxConnections` are open, the one idle
/// the longest is closed, as nginx reuses its idle keep-alive connections when it runs short: a new
/// client gets in at the expense of one that is doing nothing. Requests in progress are never cut.
///
/// As Hummingbird's accept gate (`AvailableConnectionsDelegate`), it counts accepted connections and
/// stops accepting beyond one over the limit (that one is what pushes the oldest idle connection
/// out); accepting resumes when a connection closes. So with every connection busy the next clients
/// wait in the listen queue instead of the server calling `accept` into `EMFILE` (which NIO backs off
/// from, but which also fails the server's own files).
final class ConnectionLimiter: AvailableConnectionsDelegate, Sendable {
    /// The most connections kept open.
    let maxConnections: Int
    private let state: NIOLockedValueBox<State>

    private struct State {
        /// Connections accepted and not yet closed (the gate's count).
        var accepted = 0
        /// The registered connections that are not closing.
        var open: [Int: Connection] = [:]
        var nextID = 0
        /// Ticks at each change of idleness, to order idle connections.
        var clock: UInt64 = 0
    }

    private struct Connection {
        let channel: any Channel
        /// When it last became idle; nil while a request is in progress.
        var idleSince: UInt64?
    }

    init(maxConnections: Int) {
        self.maxConnections = maxConnections
        state = NIOLockedValueBox(State())
    }

    /// Registers a connection that has just opened (idle: it has sent no request yet) and returns
    /// its id. If that puts the server over its limit, another connection idle the longest is closed.
    func opened(_ channel: any Channel) -> Int {
        let (id, evicted) = state.withLockedValue { state -> (Int, (any Channel)?) in
            let id = state.nextID
            state.nextID += 1
            state.clock += 1
            state.open[id] = Connection(channel: channel, idleSince: state.clock)
            return (id, Self.removeOldestIdle(from: &state, over: maxConnections, sparing: id))
        }
        evicted?.close(promise: nil)
        return id
    }

    /// A request began on connection `id`: it cannot be closed for being idle.
    func busy(_ id: Int) {
        state.withLockedValue { $0.open[id]?.idleSince = nil }
    }

    /// Connection `id` has answered everything it received. Over the limit, the connection idle the
    /// longest is closed (this one, if it is the only idle one).
    func idle(_ id: Int) {
        let evicted = state.withLockedValue { state -> (any Channel)? in
            guard state.open[id] != nil else { return nil }
            state.clock += 1
            state.open[id]?.idleSince = state.clock
            return Self.removeOldestIdle(from: &state, over: maxConnections, sparing: nil)
        }
        evicted?.close(promise: nil)
    }

    /// Closes the connection idle the longest, whatever the count: `accept` failed for want of a
    /// descriptor (``AcceptFailureBackoff``), and a waiting client needs one more than an idle one does.
    func closeOldestIdle() {
        state.withLockedValue { state in Self.removeOldestIdle(from: &state, over: 0, sparing: nil) }?.close(promise: nil)
    }

    /// Connection `id` closed.
    func closed(_ id: Int) {
        _ = state.withLockedValue { $0.open.removeValue(forKey: id) }
    }

    /// The connections registered and not closing (tests).
    var openCount: Int { state.withLockedValue { $0.open.count } }

    /// With more than `limit` connections open, removes the one idle the longest but `sparing` and
    /// returns its channel to be closed (outside the lock).
    private static func removeOldestIdle(from state: inout State, over limit: Int, sparing: Int?) -> (any Channel)? {
        guard state.open.count > limit else { return nil }
        var oldest: (id: Int, since: UInt64)?
        for (id, connection) in state.open where id != sparing {
            guard let since = connection.idleSince else { continue }
            if oldest.map({ since < $0.since }) ?? true { oldest = (id, since) }
        }
        guard let oldest else { return nil }
        return state.open.removeValue(forKey: oldest.id)?.channel
    }

    // MARK: AvailableConnectionsDelegate (called on the listening channel's event loop)

    func connectionOpened() {
        state.withLockedValue { $0.accepted += 1 }
    }

    func connectionClosed() {
        state.withLockedValue { $0.accepted -= 1 }
    }

    func isAcceptingNewConnections() -> Bool {
        state.withLockedValue { $0.accepted <= maxConnections }
    }
}
