import Foundation
import NLUDialogue
import NLUDialogueSQLite
import NLUTestSupport
import Testing

@Suite struct SQLiteConversationStoreTests {
    static func path() -> String {
        TestScratch.file("conversations", extension: "sqlite").path
    }

    static func store(_ path: String = path(), idle: Double? = 3600, max: Int? = nil, stateBytes: Int? = nil,
                      clock: TestClock = TestClock()) throws -> SQLiteConversationStore {
        try SQLiteConversationStore(path: path, expiry: try ConversationExpiry(idleSeconds: idle, maxConversations: max, maxStateBytes: stateBytes),
                                    now: { clock.now })
    }

    @Test func conversationsContinue() async throws { try await StoreBehaviour.conversationsContinue(try Self.store()) }
    @Test func concurrentMessagesAreSerialised() async throws { try await StoreBehaviour.concurrentMessagesAreSerialised(try Self.store()) }
    @Test func idleConversationsExpire() async throws {
        let clock = TestClock()
        try await StoreBehaviour.idleConversationsExpire(try Self.store(idle: 60, clock: clock), clock: clock)
    }
    @Test func deletion() async throws { try await StoreBehaviour.deletion(try Self.store()) }
    @Test func leastRecentlyUsedConversationGoesPastTheLimit() async throws {
        let clock = TestClock()
        try await StoreBehaviour.leastRecentlyUsedGoesPastTheLimit(try Self.store(max: 2, clock: clock), clock: clock)
    }
    @Test func oversizedStateIsRefused() async throws { try await StoreBehaviour.oversizedStateIsRefused(try Self.store(stateBytes: 1024)) }
    @Test func purgeForgetsIdleConversations() async throws {
        let clock = TestClock()
        try await StoreBehaviour.purgeForgetsIdleConversations(try Self.store(idle: 60, clock: clock), clock: clock)
    }
    @Test func scheduledPurgeRuns() async throws {
        let clock = TestClock()
        try await StoreBehaviour.scheduledPurgeRuns(try Self.store(idle: 60, clock: clock), clock: clock)
    }

    /// The limit is one count for every process on the file: conversations started through two stores
    /// (two server processes) leave at most `maxConversations` rows, the least recently used gone.
    @Test func theLimitHoldsAcrossTwoStoresOnOneFile() async throws {
        let clock = TestClock()
        let path = Self.path()
        let (one, two) = (try Self.store(path, max: 3, clock: clock), try Self.store(path, max: 3, clock: clock))
        for number in 0..<6 {
            clock.advance(1)
            _ = try await (number % 2 == 0 ? one : two).respond(to: StoreBehaviour.say("x"), in: try ConversationID("c\(number)"), dialogue: StoreBehaviour.counter)
        }
        var kept: [String] = []
        for number in 0..<6 where try await one.conversation(try ConversationID("c\(number)")) != nil { kept.append("c\(number)") }
        #expect(kept == ["c3", "c4", "c5"])
    }
    @Test func anotherDialoguesStateIsRefused() async throws { try await StoreBehaviour.anotherDialoguesStateIsRefused(try Self.store()) }

    /// Two stores on one file (two server processes): what one wrote, the other continues, and their
    /// concurrent turns on one conversation are serialised.
    @Test func twoStoresOnOneFileShareConversations() async throws {
        let path = Self.path()
        let (one, two) = (try Self.store(path), try Self.store(path))
        let id = try ConversationID("shared")
        _ = try await one.respond(to: StoreBehaviour.say("a"), in: id, dialogue: StoreBehaviour.counter)
        let reply = try await two.respond(to: StoreBehaviour.say("b"), in: id, dialogue: StoreBehaviour.counter)
        #expect(!reply.started && reply.state.context["count"] == 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<20 {
                group.addTask {
                    _ = try await (number % 2 == 0 ? one : two).respond(to: StoreBehaviour.say("c"), in: id, dialogue: StoreBehaviour.counter)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await one.conversation(id)?.state.context["count"] == 22)
    }

    /// A SQLite file that is something else is refused and left as it was.
    @Test func anotherDatabaseIsRefusedAndLeftAlone() throws {
        let path = Self.path()
        let other = try SQLiteConversationStore(path: path, expiry: try ConversationExpiry())
        _ = other
        // Make a file with a foreign table, as a search index or any app's database would be.
        let foreign = Self.path()
        #expect(FileManager.default.createFile(atPath: foreign, contents: nil))
        let created = Process()
        created.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        created.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table documents (id text)'); c.commit()", foreign]
        try created.run()
        created.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        #expect(throws: ConversationStoreError.self) { try Self.store(foreign) }
        do { _ = try Self.store(foreign) } catch {
            #expect("\(error)".contains("is a SQLite database but not a conversation store (its tables: documents)"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before)
    }
}
