import Foundation

/// Where a server keeps its conversations' ``DialogueState`` between turns: in memory
/// (``MemoryConversationStore``), in a SQLite file or in PostgreSQL (the `NLUDialogueSQLite` and
/// `NLUDialoguePostgres` modules), so that replicas behind a load balancer share them.
///
/// Every store runs a turn as one unit: ``update(_:_:)`` hands the current state to the turn and keeps the
/// state it returns, with no other update of the same conversation in between (a lock, a transaction or a
/// version check, by store), so concurrent messages for one conversation are applied one after the other and
/// none is lost; a turn that throws leaves the conversation as it was.
///
///     let store = MemoryConversationStore(expiry: try ConversationExpiry())
///     let reply = try await store.respond(to: message, in: try ConversationID("user-42"), dialogue: dialogue)
public protocol ConversationStore: Sendable {
    /// The conversation `id` as last stored, `nil` when there is none (never started, deleted, or expired).
    func conversation(_ id: ConversationID) async throws -> StoredConversation?

    /// Runs `turn` on the current state of `id` (`nil` for a conversation not started or expired) and stores the
    /// state it returns, atomically for that conversation; returns the turn's result.
    /// - Throws: what `turn` throws (nothing is stored then), or ``ConversationStoreError``.
    func update<Result: Sendable>(_ id: ConversationID,
                                  _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result

    /// Forgets `id`; whether there was such a conversation.
    func delete(_ id: ConversationID) async throws -> Bool

    /// Forgets, in one transaction, the conversations idle past the expiry, then the least recently used ones
    /// beyond its ``ConversationExpiry/maxConversations``; how many went. Every store also does this on access
    /// (expired conversations are never read, and a conversation starting makes room); this reclaims the space
    /// of conversations nobody touches again (``purgeExpiredPeriodically(every:onFailure:)``).
    @discardableResult
    func purgeExpired() async throws -> Int
}

extension ConversationStore {
    /// Runs ``purgeExpired()`` every `interval` seconds until the task is cancelled (a server runs it beside its
    /// routes, every ``ConversationExpiry/purgeInterval``); a failed purge goes to `onFailure`, and the next
    /// round tries again (a database down for a while is not a reason to stop purging).
    public func purgeExpiredPeriodically(every interval: Double, onFailure: @escaping @Sendable (any Error) -> Void = { _ in }) async {
        let nanoseconds = UInt64(max(0.001, interval) * 1e9)
        while !Task.isCancelled {
            do {
                try await Task.sleep(nanoseconds: nanoseconds)
            } catch {
                return
            }
            do {
                try await purgeExpired()
            } catch {
                if Task.isCancelled { return }
                onFailure(error)
            }
        }
    }
}

/// One conversation as a store holds it.
public struct StoredConversation: Sendable, Equatable {
    public var id: ConversationID
    public var state: DialogueState
    /// When its last turn was stored.
    public var updated: Date

    public init(id: ConversationID, state: DialogueState, updated: Date) {
        self.id = id
        self.state = state
        self.updated = updated
    }
}

/// A store that cannot do what was asked.
public enum ConversationStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting out of range (the idle time, the number of conversations, a location).
    case invalidArgument(String)
    /// The database failed or refused: where, and why.
    case storage(location: String, message: String)
    /// A stored state that does not decode (written by something else, or damaged).
    case damagedState(id: String, reason: String)
    /// The conversation kept changing under the turn (a version check failed this many times in a row).
    case contention(id: String, attempts: Int)
    /// The state a turn left is larger than the store keeps (``ConversationExpiry/maxStateBytes``); the
    /// conversation stays as it was.
    case stateTooLarge(id: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .invalidArgument(let message): return message
        case .storage(let location, let message): return "\(location): \(message)"
        case .damagedState(let id, let reason): return "the stored state of conversation '\(id)' cannot be read: \(reason)"
        case .contention(let id, let attempts):
            return "conversation '\(id)' changed under \(attempts) attempts in a row to store a turn; retry"
        case .stateTooLarge(let id, let bytes, let limit):
            return "the state of conversation '\(id)' after this turn is \(bytes) bytes of JSON, over the store's limit of \(limit) bytes; "
                + "the turn was not stored (the dialogue keeps too much in its context, or the message was too long)"
        }
    }
}
