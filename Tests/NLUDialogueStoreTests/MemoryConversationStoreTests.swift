import Foundation
import NLUDialogue
import Testing

@Suite struct MemoryConversationStoreTests {
    static func store(idle: Double? = 3600, max: Int? = 1000, clock: TestClock = TestClock()) throws -> MemoryConversationStore {
        MemoryConversationStore(expiry: try ConversationExpiry(idleSeconds: idle, maxConversations: max), now: { clock.now })
    }

    @Test func conversationsContinue() async throws { try await StoreBehaviour.conversationsContinue(try Self.store()) }
    @Test func concurrentMessagesAreSerialised() async throws {
        try await StoreBehaviour.concurrentMessagesAreSerialised(try Self.store(), count: 200)
    }
    @Test func idleConversationsExpire() async throws {
        let clock = TestClock()
        try await StoreBehaviour.idleConversationsExpire(try Self.store(idle: 60, clock: clock), clock: clock)
    }
    @Test func deletion() async throws { try await StoreBehaviour.deletion(try Self.store()) }
    @Test func anotherDialoguesStateIsRefused() async throws { try await StoreBehaviour.anotherDialoguesStateIsRefused(try Self.store()) }

    /// Past the limit, the conversation whose last message is the oldest goes.
    @Test func leastRecentlyUsedConversationGoesPastTheLimit() async throws {
        let clock = TestClock()
        let store = try Self.store(max: 2, clock: clock)
        let (a, b, c) = (try ConversationID("a"), try ConversationID("b"), try ConversationID("c"))
        for id in [a, b, a, c] {
            clock.advance(1)
            _ = try await store.respond(to: StoreBehaviour.say("x"), in: id, dialogue: StoreBehaviour.counter)
        }
        #expect(store.count == 2)
        #expect(try await store.conversation(b) == nil)
        #expect(try await store.conversation(a)?.state.context["count"] == 2)
        #expect(try await store.conversation(c) != nil)
    }

    @Test func limitsAreRangeChecked() throws {
        #expect(throws: ConversationStoreError.invalidArgument("the idle time of a conversation must be 1 ... 31622400 seconds; got 0.5")) {
            try ConversationExpiry(idleSeconds: 0.5)
        }
        #expect(throws: ConversationStoreError.self) { try ConversationExpiry(idleSeconds: .nan) }
        #expect(throws: ConversationStoreError.self) { try ConversationExpiry(maxConversations: 0) }
        #expect(throws: ConversationIDError.self) { try ConversationID("") }
        #expect(throws: ConversationIDError(reason: "has 129 characters; at most 128 are accepted")) {
            try ConversationID(String(repeating: "a", count: 129))
        }
        #expect(throws: ConversationIDError(reason: "has a character that is not allowed at offset 2 (U+2F); allowed: ASCII letters, digits and +-.:@_")) {
            try ConversationID("../etc")
        }
        #expect(try ConversationID("+44 20".replacingOccurrences(of: " ", with: "")).value == "+4420")
    }
}
