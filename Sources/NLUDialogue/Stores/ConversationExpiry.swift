/// When a ``ConversationStore`` forgets conversations, and how large a conversation may grow: after an idle
/// time, and beyond a number of conversations (the least recently used first), in every store — memory, SQLite
/// and PostgreSQL alike. A forgotten conversation starts again from the dialogue's opening turn on its next
/// message, as a Rasa session does after `session_expiration_time`. A turn whose state would be larger than
/// ``maxStateBytes`` is refused (``ConversationStoreError/stateTooLarge(id:bytes:limit:)``), the conversation as
/// it was: a dialogue that keeps every message in a context variable cannot grow a row without end.
///
///     let expiry = try ConversationExpiry(idleSeconds: 3600, maxConversations: 100_000, maxStateBytes: 1 << 20)
public struct ConversationExpiry: Sendable, Equatable {
    /// Seconds without a message after which a conversation is gone; `nil`: never.
    public let idleSeconds: Double?
    /// The most conversations kept; past it, the least recently used ones are forgotten. `nil`: no limit.
    /// (In a database shared by replicas the count may pass it by the conversations starting at the same
    /// moment on other replicas, until the next start or purge trims it.)
    public let maxConversations: Int?
    /// The largest state stored, in bytes of its JSON (``StoredStateCoding``); `nil`: no limit.
    public let maxStateBytes: Int?

    /// The longest idle time accepted: a year.
    public static let maximumIdleSeconds: Double = 366 * 86_400
    /// The most conversations a store may be asked to keep (in memory each holds its state, a few KB).
    public static let maximumConversations = 100_000_000
    /// The range of ``maxStateBytes``: the smallest state of a dialogue is about 200 bytes; 64 MiB is
    /// beyond any row worth reading back per turn.
    public static let stateBytesRange = 256...(64 << 20)
    /// The default ``maxStateBytes``: 1 MiB, ten times the longest text the server accepts.
    public static let defaultMaxStateBytes = 1 << 20

    /// - Throws: ``ConversationStoreError/invalidArgument(_:)`` for an idle time outside 1 s ... a year, a
    ///   count outside 1 ... 100,000,000 or a state size outside 256 bytes ... 64 MiB.
    public init(idleSeconds: Double? = 3600, maxConversations: Int? = 100_000,
                maxStateBytes: Int? = ConversationExpiry.defaultMaxStateBytes) throws(ConversationStoreError) {
        if let idleSeconds, !(idleSeconds.isFinite && idleSeconds >= 1 && idleSeconds <= Self.maximumIdleSeconds) {
            throw .invalidArgument("the idle time of a conversation must be 1 ... \(Int(Self.maximumIdleSeconds)) seconds; got \(idleSeconds)")
        }
        if let maxConversations, !(1...Self.maximumConversations).contains(maxConversations) {
            throw .invalidArgument("the number of conversations kept must be 1 ... \(Self.maximumConversations); got \(maxConversations)")
        }
        if let maxStateBytes, !Self.stateBytesRange.contains(maxStateBytes) {
            throw .invalidArgument("the largest state of a conversation must be \(Self.stateBytesRange.lowerBound) ... "
                + "\(Self.stateBytesRange.upperBound) bytes; got \(maxStateBytes)")
        }
        self.idleSeconds = idleSeconds
        self.maxConversations = maxConversations
        self.maxStateBytes = maxStateBytes
    }

    /// Conversations last updated before this moment (seconds since 1970) are gone at `now`.
    public func cutoff(at now: Double) -> Double {
        idleSeconds.map { now - $0 } ?? -.infinity
    }

    /// How many of `count` conversations must go, oldest first, to be within ``maxConversations``.
    public func excess(over count: Int) -> Int {
        maxConversations.map { max(0, count - $0) } ?? 0
    }

    /// How often a server purges expired conversations: a tenth of the idle time, within 1 s ... 60 s, so
    /// an expired row lives at most about a tenth longer than its idle time, and a purge of a large table
    /// runs at most once a minute.
    public var purgeInterval: Double {
        min(60, max(1, (idleSeconds ?? 600) / 10))
    }
}
