import Foundation

/// Conversations in this process's memory (the server's default): lost when it stops, not shared between
/// replicas. Forgets a conversation idle longer than ``ConversationExpiry/idleSeconds`` and, past
/// ``ConversationExpiry/maxConversations``, the least recently used one; refuses a state over
/// ``ConversationExpiry/maxStateBytes`` of JSON (measured as the database stores would store it).
///
/// Turns of different conversations run in parallel: a turn reads the state under a lock, runs without it,
/// and stores its result only if the conversation has not changed meanwhile (a version check), running again
/// on the newer state otherwise; so concurrent messages for one conversation are serialised and none is lost.
///
///     let store = MemoryConversationStore(expiry: try ConversationExpiry(idleSeconds: 1800, maxConversations: 10_000))
public final class MemoryConversationStore: ConversationStore, @unchecked Sendable {
    public let expiry: ConversationExpiry
    /// How many times a turn runs again on a newer state before giving up: each retry means another turn of
    /// the same conversation was stored, so only that many concurrent messages could exhaust it.
    public static let maximumAttempts = 10_000

    private struct Entry {
        var state: DialogueState
        var updated: Double
        /// Unique per write in this store (never reused, unlike a turn count after a delete).
        var version: UInt64
        /// Neighbours in recency order: `older` toward ``oldest``, `newer` toward ``newest``.
        var older: String?
        var newer: String?
    }

    // Guarded by `lock`: the entries and a doubly linked list through them, oldest update first.
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var oldest: String?
    private var newest: String?
    private var nextVersion: UInt64 = 1
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock (tests move it to expire conversations).
    public init(expiry: ConversationExpiry, now: @escaping @Sendable () -> Date = Date.init) {
        self.expiry = expiry
        self.now = now
    }

    /// How many conversations are kept (expired ones not counted).
    public var count: Int {
        locked { dropExpired(); return entries.count }
    }

    public func conversation(_ id: ConversationID) async throws -> StoredConversation? {
        locked {
            dropExpired()
            return entries[id.value].map { StoredConversation(id: id, state: $0.state, updated: Date(timeIntervalSince1970: $0.updated)) }
        }
    }

    public func update<Result: Sendable>(_ id: ConversationID,
                                         _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result {
        for _ in 0..<Self.maximumAttempts {
            let read = locked { () -> Entry? in dropExpired(); return entries[id.value] }
            let (state, result) = try turn(read?.state)
            if expiry.maxStateBytes != nil { _ = try StoredStateCoding.encode(state, id: id.value, limit: expiry.maxStateBytes) }
            let stored = locked { () -> Bool in
                dropExpired()
                guard entries[id.value]?.version == read?.version else { return false }
                store(state, for: id.value)
                return true
            }
            if stored { return result }
        }
        throw ConversationStoreError.contention(id: id.value, attempts: Self.maximumAttempts)
    }

    public func delete(_ id: ConversationID) async throws -> Bool {
        locked {
            dropExpired()
            return remove(id.value)
        }
    }

    @discardableResult
    public func purgeExpired() async throws -> Int {
        locked {
            let before = entries.count
            dropExpired()
            // Nothing is over the limit here: every store trims to it at once.
            return before - entries.count
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Stores `state` as the newest conversation, then forgets the oldest ones beyond the limit.
    private func store(_ state: DialogueState, for id: String) {
        remove(id)
        entries[id] = Entry(state: state, updated: now().timeIntervalSince1970, version: nextVersion, older: newest, newer: nil)
        nextVersion += 1
        if let newest { entries[newest]?.newer = id }
        newest = id
        if oldest == nil { oldest = id }
        if let limit = expiry.maxConversations {
            while entries.count > limit, let victim = oldest { remove(victim) }
        }
    }

    /// The list is in update order, so the expired conversations are its oldest ones.
    private func dropExpired() {
        let cutoff = expiry.cutoff(at: now().timeIntervalSince1970)
        while let victim = oldest, let entry = entries[victim], entry.updated < cutoff { remove(victim) }
    }

    @discardableResult
    private func remove(_ id: String) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        return true
    }
}
