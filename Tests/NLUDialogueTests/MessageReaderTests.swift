import Testing
@testable import NLUDialogue

/// The one rule every front follows for a text sent to a bot: a payload naming a known intent is that message and
/// the model never runs; anything else goes to the model, with what reading a would-be payload left out.
@Suite struct MessageReaderTests {
    static let reader = MessageReader(knownIntents: ["greet", "inform"])
    /// Stands for an intents model: the text as an intent of its own, so a test sees which path a text took.
    static func model(_ text: String) -> ParsedMessage {
        ParsedMessage(text: text, intents: [.init(intent: "model:\(text)", confidence: 0.5)])
    }

    @Test func aPayloadOfAKnownIntentIsItsOwnMessageAndTheModelDoesNotRun() throws {
        let read = Self.reader.read(#"/inform{"cuisine": "thai"}"#) { _ in Issue.record("the model ran"); return ParsedMessage(text: "") }
        #expect(read.message == PayloadMessage.parse(#"/inform{"cuisine": "thai"}"#)?.message)
        #expect(read.message.intents == [.init(intent: "inform", confidence: 1)])
        #expect(read.message.entities.map(\.value) == ["thai"])
        #expect(read.warnings.isEmpty)
    }

    @Test func anUnknownIntentIsTextForTheModelWithAWarning() throws {
        let read = Self.reader.read("/order_pizza", classify: Self.model)
        #expect(read.message == Self.model("/order_pizza"))
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.contains("the bot has no intent 'order_pizza' (known: greet, inform): taken as text") == true)
        // Rasa's own intents (restart, back...) are known to every bot.
        #expect(Self.reader.read("/restart", classify: Self.model).message.intents.first?.intent == PayloadMessage.restartIntent)
    }

    @Test func plainTextGoesToTheModelWithoutWarnings() async throws {
        let read = Self.reader.read("hello there", classify: Self.model)
        #expect(read == MessageReader.Reading(message: Self.model("hello there"), warnings: []))
        // The server's form (classification awaited on its workers) reads the same.
        let awaited = await Self.reader.read("hello there") { text async in Self.model(text) }
        #expect(awaited == read)
        let payload = await Self.reader.read("/greet") { text async in Self.model(text) }
        #expect(payload.message.intents == [.init(intent: "greet", confidence: 1)])
    }

    @Test func withoutAModelEveryIntentIsTaken() {
        let read = MessageReader(knownIntents: nil).read("/order_pizza", classify: Self.model)
        #expect(read.message.intents == [.init(intent: "order_pizza", confidence: 1)])
    }
}
