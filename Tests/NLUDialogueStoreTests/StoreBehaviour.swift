import Foundation
import NLUDialogue
import Testing

/// What every ``ConversationStore`` must do, run on each store by its suite: conversations kept and
/// continued, concurrent messages for one conversation serialised with none lost, idle ones forgotten,
/// deletion, and a conversation of another dialogue refused without being touched.
enum StoreBehaviour {
    /// Counts its turns in the context: a turn that ran on a stale state would repeat a number.
    static let counter = try! Dialogue(try! DialogueModel.decode(from: Data(#"""
    {"format": "nlu-dialogue", "formatVersion": 1, "name": "counter",
     "nodes": [
       {"id": "start", "condition": "welcome", "context": {"count": 0}, "responses": [{"type": "text", "values": ["Hi"]}]},
       {"id": "count", "condition": "true", "context": {"count": "<? $count + 1 ?>"}, "responses": [{"type": "text", "values": ["$count"]}]}
     ]}
    """#.utf8), file: "counter.json"))

    /// IBM's car-dashboard workspace (Tests/Fixtures/dialogue/watson-car-dashboard, Apache-2.0).
    static func carDashboard() throws -> Dialogue {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dialogue/watson-car-dashboard/car_workspace.json")
        return try Dialogue(try DialogueImporter.read(try Data(contentsOf: url), file: "car_workspace.json").model)
    }

    static func say(_ text: String, _ intent: String? = nil, _ entities: [(String, String)] = []) -> ParsedMessage {
        ParsedMessage(text: text, intents: intent.map { [.init(intent: $0, confidence: 0.9)] } ?? [],
                      entities: entities.map { .init(entity: $0.0, value: $0.1) })
    }

    /// A new conversation takes the opening turn first; the next message continues from the stored state
    /// (the car-dashboard answers of WatsonDialogueImporterTests, through the store).
    static func conversationsContinue(_ store: any ConversationStore) async throws {
        let dialogue = try carDashboard()
        let id = try ConversationID("driver-1")
        #expect(try await store.conversation(id) == nil)
        let first = try await store.respond(to: say("turn on the lights", "turn_on", [("appliance", "lights")]), in: id, dialogue: dialogue)
        #expect(first.started && first.turns.count == 2)
        #expect(first.turns.map(\.texts) == [["Hi. It looks like a nice drive today. What would you like me to do?  "],
                                             ["I'll turn on the lights for you."]])
        let second = try await store.respond(to: say("switch the lights on", "turn_on", [("appliance", "lights")]), in: id, dialogue: dialogue)
        #expect(!second.started && second.turns.map(\.texts) == [["It looks like the lights are already on."]])
        let stored = try #require(try await store.conversation(id))
        #expect(stored.state == second.state && stored.state.turn == 3 && stored.state.context["lightonoff"] == "on")
        // Another conversation is apart.
        let other = try await store.respond(to: say(""), in: try ConversationID("driver-2"), dialogue: dialogue)
        #expect(other.started && other.turns.count == 1 && other.state.context["lightonoff"] != "on")
    }

    /// `count` messages sent at once to one conversation: every turn ran on the state the previous one left.
    static func concurrentMessagesAreSerialised(_ store: any ConversationStore, count: Int = 40) async throws {
        let id = try ConversationID("busy")
        let texts = try await withThrowingTaskGroup(of: [String].self) { group in
            for number in 0..<count {
                group.addTask { try await store.respond(to: say("message \(number)"), in: id, dialogue: counter).turns.last?.texts ?? [] }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        // The first message also took the opening turn ("Hi"); the counts are 1...count, each once.
        #expect(texts.filter { $0 != "Hi" }.sorted { Int($0)! < Int($1)! } == (1...count).map(String.init))
        let state = try #require(try await store.conversation(id)).state
        #expect(state.context["count"] == .number(Double(count)) && state.turn == count + 1)
    }

    /// Idle past the expiry: gone, and the next message starts again.
    static func idleConversationsExpire(_ store: any ConversationStore, clock: TestClock) async throws {
        let id = try ConversationID("sleepy")
        _ = try await store.respond(to: say("one"), in: id, dialogue: counter)
        clock.advance(59)
        #expect(try await store.conversation(id)?.state.context["count"] == 1)
        _ = try await store.respond(to: say("two"), in: id, dialogue: counter)
        clock.advance(61)
        #expect(try await store.conversation(id) == nil)
        let again = try await store.respond(to: say("three"), in: id, dialogue: counter)
        #expect(again.started && again.state.context["count"] == 1)
    }

    static func deletion(_ store: any ConversationStore) async throws {
        let id = try ConversationID("gone@example.com")
        _ = try await store.respond(to: say("one"), in: id, dialogue: counter)
        #expect(try await store.delete(id))
        #expect(try await store.conversation(id) == nil)
        #expect(try await !store.delete(id))
    }

    /// A conversation started with one dialogue is refused by another, and stays as it was.
    static func anotherDialoguesStateIsRefused(_ store: any ConversationStore) async throws {
        let id = try ConversationID("switched")
        _ = try await store.respond(to: say("one"), in: id, dialogue: counter)
        let before = try #require(try await store.conversation(id))
        await #expect(throws: DialogueError.self) {
            _ = try await store.respond(to: say("hello", "greetings"), in: id, dialogue: try carDashboard())
        }
        #expect(try await store.conversation(id)?.state == before.state)
    }
}

extension StoreBehaviour {
    /// Keeps the last message's text in its context: a long message makes a large state.
    static let echo = try! Dialogue(try! DialogueModel.decode(from: Data(#"""
    {"format": "nlu-dialogue", "formatVersion": 1, "name": "echo",
     "nodes": [{"id": "echo", "condition": "true", "context": {"last": "<? input.text ?>"}, "responses": [{"type": "text", "values": ["ok"]}]}]}
    """#.utf8), file: "echo.json"))

    /// Past `maxConversations` (2 here), the conversation whose last message is the oldest goes; the one that
    /// was used again stays.
    static func leastRecentlyUsedGoesPastTheLimit(_ store: any ConversationStore, clock: TestClock) async throws {
        let (a, b, c) = (try ConversationID("a"), try ConversationID("b"), try ConversationID("c"))
        for id in [a, b, a, c] {
            clock.advance(1)
            _ = try await store.respond(to: say("x"), in: id, dialogue: counter)
        }
        #expect(try await store.conversation(b) == nil)
        #expect(try await store.conversation(a)?.state.context["count"] == 2)
        #expect(try await store.conversation(c)?.state.context["count"] == 1)
        // Nothing beyond the limit is left for the purge.
        #expect(try await store.purgeExpired() == 0)
    }

    /// A turn whose state is over `maxStateBytes` (1024 here) is refused by name and size; the conversation
    /// stays as it was, and continues with a shorter message.
    static func oversizedStateIsRefused(_ store: any ConversationStore) async throws {
        let id = try ConversationID("talkative")
        _ = try await store.respond(to: say("short"), in: id, dialogue: echo)
        let before = try #require(try await store.conversation(id))
        do {
            _ = try await store.respond(to: say(String(repeating: "a", count: 2000)), in: id, dialogue: echo)
            Issue.record("a 2000-character text in the state was stored under a 1024-byte limit")
        } catch let error as ConversationStoreError {
            guard case .stateTooLarge(let name, let bytes, let limit) = error else { throw error }
            #expect(name == "talkative" && limit == 1024 && bytes > 2000)
            #expect("\(error)".hasPrefix("the state of conversation 'talkative' after this turn is \(bytes) bytes of JSON, over the store's limit of 1024 bytes"))
        }
        #expect(try await store.conversation(id)?.state == before.state)
        let next = try await store.respond(to: say("again"), in: id, dialogue: echo)
        #expect(next.state.context["last"] == "again")
    }

    /// The purge forgets the conversations idle past the expiry (60 s here) that nobody touched again, and
    /// only those.
    static func purgeForgetsIdleConversations(_ store: any ConversationStore, clock: TestClock) async throws {
        for name in ["old-1", "old-2"] { _ = try await store.respond(to: say("x"), in: try ConversationID(name), dialogue: counter) }
        clock.advance(30)
        _ = try await store.respond(to: say("x"), in: try ConversationID("recent"), dialogue: counter)
        #expect(try await store.purgeExpired() == 0)
        clock.advance(31)
        #expect(try await store.purgeExpired() == 2)
        #expect(try await store.conversation(try ConversationID("old-1")) == nil)
        #expect(try await store.conversation(try ConversationID("recent"))?.state.context["count"] == 1)
        #expect(try await store.purgeExpired() == 0)
    }

    /// The scheduled purge removes an expired conversation's row by itself: its rounds (watched through a
    /// proxy, since a direct purge would remove the row too) purge it within 10 s, and the store is then empty.
    static func scheduledPurgeRuns(_ store: any ConversationStore, clock: TestClock) async throws {
        _ = try await store.respond(to: say("x"), in: try ConversationID("forgotten"), dialogue: counter)
        clock.advance(61)
        let watched = PurgeWatcher(store)
        let purging = Task { await watched.purgeExpiredPeriodically(every: 0.05) }
        for _ in 0..<200 where watched.purged == 0 { try await Task.sleep(nanoseconds: 50_000_000) }
        purging.cancel()
        await purging.value
        #expect(watched.purged == 1 && watched.rounds >= 1)
        #expect(try await store.purgeExpired() == 0)
    }
}

/// A store that forwards to another and counts the purges made through it.
final class PurgeWatcher: ConversationStore, @unchecked Sendable {
    private let store: any ConversationStore
    private let lock = NSLock()
    private var counts = (rounds: 0, purged: 0)
    init(_ store: any ConversationStore) { self.store = store }

    var rounds: Int { lock.withLock { counts.rounds } }
    var purged: Int { lock.withLock { counts.purged } }

    func conversation(_ id: ConversationID) async throws -> StoredConversation? { try await store.conversation(id) }
    func update<Result: Sendable>(_ id: ConversationID,
                                  _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result {
        try await store.update(id, turn)
    }
    func delete(_ id: ConversationID) async throws -> Bool { try await store.delete(id) }
    func purgeExpired() async throws -> Int {
        let purged = try await store.purgeExpired()
        lock.withLock { counts.rounds += 1; counts.purged += purged }
        return purged
    }
}

/// A clock the tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { current } }
    func advance(_ seconds: Double) { lock.withLock { current += seconds } }
}
