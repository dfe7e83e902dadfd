import Foundation
import GRDB
import NLUDialogue

/// Conversations in a SQLite file: they outlive the server, and several server processes on one machine
/// share them (SQLite's own locking). Each turn is one `BEGIN IMMEDIATE` transaction: the state is read,
/// the turn runs and its state is written before any other process or thread may write, so concurrent
/// messages for one conversation are serialised and a process killed mid-turn leaves the previous state.
///
/// The expiry is enforced in the same transactions: each turn first deletes the conversations idle past
/// ``ConversationExpiry/idleSeconds``; a conversation starting then deletes the least recently used ones beyond
/// ``ConversationExpiry/maxConversations`` (the write lock makes the count exact across processes); a state over
/// ``ConversationExpiry/maxStateBytes`` is refused before it is written. ``purgeExpired()`` does both for
/// conversations nobody touches again (a server runs it on a schedule).
///
/// The file holds a `store_info` table naming its format; a file that is something else (an index, any
/// other database) is refused, never written to.
///
///     let store = try SQLiteConversationStore(path: "conversations.sqlite", expiry: try ConversationExpiry())
public final class SQLiteConversationStore: ConversationStore, @unchecked Sendable {
    public let path: String
    public let expiry: ConversationExpiry
    private let database: DatabasePool
    private let now: @Sendable () -> Date
    static let format = "nlukit-conversations"

    /// Opens the store at `path`, creating it when the file is missing or empty.
    /// - Throws: ``ConversationStoreError/storage(location:message:)`` when the file cannot be opened or is
    ///   not a conversation store.
    public init(path: String, expiry: ConversationExpiry, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.path = path
        self.expiry = expiry
        self.now = now
        var configuration = Configuration()
        // Other processes' turns hold the write lock for a moment: wait for them rather than fail.
        configuration.busyMode = .timeout(10)
        do {
            // A file that has content is checked read-only first: opening a pool would switch it to WAL,
            // which writes to a database that may not be ours.
            if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 {
                var reading = Configuration()
                reading.readonly = true
                try DatabaseQueue(path: path, configuration: reading).read { db in try Self.checkFormat(db, path: path) }
            }
            database = try DatabasePool(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Self.prepare(db, path: path)
                    return .commit
                }
            }
        } catch let error as ConversationStoreError {
            throw error
        } catch {
            throw ConversationStoreError.storage(location: path, message: "\(error)")
        }
    }

    /// Creates the tables in an empty file; checks the format of a file that has tables.
    private static func prepare(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty {
            try db.execute(sql: """
                CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                INSERT INTO store_info (key, value) VALUES ('format', '\(format)'), ('schema_version', '1');
                CREATE TABLE conversations (id TEXT PRIMARY KEY, state TEXT NOT NULL, updated REAL NOT NULL);
                CREATE INDEX conversations_updated ON conversations (updated);
                """)
            return
        }
        try checkFormat(db, path: path)
    }

    /// Refuses a database that has tables but is not a conversation store.
    private static func checkFormat(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        guard !tables.isEmpty else { return }
        let found = tables.contains("store_info")
            ? try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'format'") : nil
        guard found == format else {
            throw ConversationStoreError.storage(location: path, message: "is a SQLite database but not a conversation store (its tables: "
                + "\(tables.sorted().prefix(5).joined(separator: ", "))); give a new file or one nlu serve made")
        }
    }

    public func conversation(_ id: ConversationID) async throws -> StoredConversation? {
        let cutoff = expiry.cutoff(at: now().timeIntervalSince1970)
        let row = try await access { try await self.database.read { db in
            try Row.fetchOne(db, sql: "SELECT state, updated FROM conversations WHERE id = ? AND updated >= ?", arguments: [id.value, cutoff])
                .map { (row: Row) -> (String, Double) in (row[0], row[1]) }
        } }
        guard let (text, updated) = row else { return nil }
        return StoredConversation(id: id, state: try StoredStateCoding.decode(text, id: id.value), updated: Date(timeIntervalSince1970: updated))
    }

    public func update<Result: Sendable>(_ id: ConversationID,
                                         _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result {
        let now = self.now().timeIntervalSince1970
        let expiry = self.expiry
        return try await access { try await self.database.writeWithoutTransaction { db in
            var result: Result?
            try db.inTransaction(.immediate) {
                // The expired conversations go first, so an expired one starts again below.
                try Self.deleteExpired(db, expiry: expiry, now: now)
                let current = try String.fetchOne(db, sql: "SELECT state FROM conversations WHERE id = ?", arguments: [id.value])
                    .map { text throws(ConversationStoreError) in try StoredStateCoding.decode(text, id: id.value) }
                let (state, value) = try turn(current)
                try db.execute(sql: "INSERT INTO conversations (id, state, updated) VALUES (?, ?, ?) "
                                   + "ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated = excluded.updated",
                               arguments: [id.value, try StoredStateCoding.encode(state, id: id.value, limit: expiry.maxStateBytes), now])
                // Only a conversation starting adds a row: the others leave the count as it was.
                if current == nil { try Self.deleteLeastRecentlyUsed(db, expiry: expiry, keeping: id.value) }
                result = value
                return .commit
            }
            guard let result else { throw ConversationStoreError.storage(location: self.path, message: "the transaction ended without a result") }
            return result
        } }
    }

    @discardableResult
    public func purgeExpired() async throws -> Int {
        let now = self.now().timeIntervalSince1970
        let expiry = self.expiry
        return try await access { try await self.database.writeWithoutTransaction { db in
            var purged = 0
            try db.inTransaction(.immediate) {
                purged = try Self.deleteExpired(db, expiry: expiry, now: now)
                    + Self.deleteLeastRecentlyUsed(db, expiry: expiry, keeping: nil)
                return .commit
            }
            return purged
        } }
    }

    /// Deletes the conversations idle past the expiry (the `updated` index finds them); how many.
    @discardableResult
    private static func deleteExpired(_ db: Database, expiry: ConversationExpiry, now: Double) throws -> Int {
        guard expiry.idleSeconds != nil else { return 0 }
        try db.execute(sql: "DELETE FROM conversations WHERE updated < ?", arguments: [expiry.cutoff(at: now)])
        return db.changesCount
    }

    /// Deletes the least recently updated conversations beyond the limit, never `keeping` (the one a turn
    /// just stored); how many.
    @discardableResult
    private static func deleteLeastRecentlyUsed(_ db: Database, expiry: ConversationExpiry, keeping: String?) throws -> Int {
        guard expiry.maxConversations != nil else { return 0 }
        let excess = expiry.excess(over: try Int.fetchOne(db, sql: "SELECT count(*) FROM conversations") ?? 0)
        guard excess > 0 else { return 0 }
        try db.execute(sql: "DELETE FROM conversations WHERE id IN (SELECT id FROM conversations WHERE id IS NOT ? ORDER BY updated LIMIT ?)",
                       arguments: [keeping, excess])
        return db.changesCount
    }

    public func delete(_ id: ConversationID) async throws -> Bool {
        let cutoff = expiry.cutoff(at: now().timeIntervalSince1970)
        return try await access { try await self.database.write { db in
            try db.execute(sql: "DELETE FROM conversations WHERE id = ? AND updated >= ?", arguments: [id.value, cutoff])
            return db.changesCount > 0
        } }
    }

    /// `body`, with GRDB's errors named after the file (the turn's own errors pass as they are).
    private func access<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw ConversationStoreError.storage(location: path, message: error.message ?? "\(error)")
        }
    }
}
