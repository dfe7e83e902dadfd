/// When a ``ConversationStore`` forgets conversations: after an idle time, and (in memory) beyond a number
/// of conversations, the least recently used first. A forgotten conversation starts again from the
/// dialogue's opening turn on its next message, as a Rasa session does after `session_expiration_time`.
///
///     let expiry = try ConversationExpiry(idleSeconds: 3600, maxConversations: 100_000)
public struct ConversationExpiry: Sendable, Equatable {
    /// Seconds without a message after which a conversation is gone; `nil`: never.
    public let idleSeconds: Double?
    /// The most conversations kept (the in-memory store); `nil`: no limit.
    public let maxConversations: Int?

    /// The longest idle time accepted: a year.
    public static let maximumIdleSeconds: Double = 366 * 86_400
    /// The most conversations an in-memory store may be asked to keep (each holds its state, a few KB).
    public static let maximumConversations = 100_000_000

    /// - Throws: ``ConversationStoreError/invalidArgument(_:)`` for an idle time outside 1 s ... a year or a
    ///   count outside 1 ... 100,000,000.
    public init(idleSeconds: Double? = 3600, maxConversations: Int? = 100_000) throws(ConversationStoreError) {
        if let idleSeconds, !(idleSeconds.isFinite && idleSeconds >= 1 && idleSeconds <= Self.maximumIdleSeconds) {
            throw .invalidArgument("the idle time of a conversation must be 1 ... \(Int(Self.maximumIdleSeconds)) seconds; got \(idleSeconds)")
        }
        if let maxConversations, !(1...Self.maximumConversations).contains(maxConversations) {
            throw .invalidArgument("the number of conversations kept must be 1 ... \(Self.maximumConversations); got \(maxConversations)")
        }
        self.idleSeconds = idleSeconds
        self.maxConversations = maxConversations
    }

    /// Conversations last updated before this moment (seconds since 1970) are gone at `now`.
    public func cutoff(at now: Double) -> Double {
        idleSeconds.map { now - $0 } ?? -.infinity
    }
}
