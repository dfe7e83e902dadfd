import Foundation
import NLUInputOutput
import NLUPipelines
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// A Dialogflow ES agent export (Tests/Fixtures/dialogue/dialogflow-pizza, in the agent export's shape:
/// `agent.json`, `intents/<Name>.json` with `responses[].parameters` and `messages`, follow-up intents on
/// an output context) imported and run: required parameters asked with their prompts, texts drawn at
/// random from a seed, the follow-up intent reachable only while its context lives.
@Suite struct DialogflowDialogueImporterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue")
    static let agent = fixtures.appendingPathComponent("dialogflow-pizza")

    static func read(_ url: URL = agent) throws -> (model: DialogueModel, warnings: [String]) {
        try #require(try DialogueExport.read(url))
    }

    static func user(_ text: String, intent: String? = nil, _ entities: [ParsedMessage.Entity] = []) -> ParsedMessage {
        ParsedMessage(text: text, intents: intent.map { [.init(intent: $0, confidence: 0.9)] } ?? [], entities: entities)
    }

    @Test func importsParametersMessagesAndContexts() throws {
        let (model, warnings) = try Self.read()
        #expect(model.source == "dialogflow")
        #expect(model.language == "en")
        // Intents needing a context first, the fallback last.
        #expect(model.nodes.map(\.id) == ["order.pizza - no", "order.pizza - yes", "Default Welcome Intent", "order.pizza", "Default Fallback Intent"])
        let order = model.nodes[3]
        #expect(order.condition == "(intents.size() > 0 && intents[0].intent == 'order.pizza' && intents[0].confidence >= 0.2)")
        #expect(order.slots.map(\.variable) == ["size", "count", "topping"])
        #expect(order.slots.map(\.entity) == ["size", "count", "topping"])
        #expect(order.slots.map(\.isRequired) == [true, true, false])
        #expect(order.slots[1].prompt == [.text(values: ["How many $size pizzas?"], selection: .random)])
        #expect(order.responses == [.text(values: ["Okay, $count $size pizzas. Anything to drink?", "Great: $count $size pizzas. Anything to drink?"], selection: .random)])
        #expect(order.context == ["ctx_orderpizza-followup": 2])
        let yes = model.nodes[1]
        #expect(yes.condition == "(intents.size() > 0 && intents[0].intent == 'order.pizza - yes' && intents[0].confidence >= 0.2) && $ctx_orderpizza-followup > 0")
        #expect(yes.context == ["ctx_orderpizza-followup": "<? $ctx_orderpizza-followup - 1 ?>"])
        #expect(model.nodes[2].condition?.hasPrefix("(welcome || (intents.size() > 0") == true)
        #expect(model.nodes[4].condition == "anything_else")
        #expect(warnings == ["intent 'order.pizza - no': the webhook is not called; the intent's own responses answer"])
        let zip = try Self.read(Self.fixtures.appendingPathComponent("dialogflow-pizza.zip"))
        #expect(zip.model.nodes == model.nodes)
    }

    @Test func ordersAPizzaThenTheFollowUpAnswersWhileItsContextLives() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read().model), seed: 3)
        #expect(try conversation.send(Self.user("")).texts == ["Hi! Would you like to order a pizza?"])
        let ask = try conversation.send(Self.user("I want a pizza", intent: "order.pizza"))
        #expect(ask.texts.count == 1 && ["What size would you like?", "Small, medium or large?"].contains(ask.texts[0]))
        #expect(try conversation.send(Self.user("big", [.init(entity: "size", value: "large")])).texts == ["How many large pizzas?"])
        let ordered = try conversation.send(Self.user("two", [.init(entity: "count", value: "2", number: 2)]))
        #expect(ordered.texts.count == 1)
        #expect(["Okay, 2 large pizzas. Anything to drink?", "Great: 2 large pizzas. Anything to drink?"].contains(ordered.texts[0]))
        #expect(conversation.state.context["ctx_orderpizza-followup"] == .number(2))
        #expect(try conversation.send(Self.user("yes", intent: "order.pizza - yes")).texts == ["I'll add a cola. Your order is complete."])
        #expect(conversation.state.context["ctx_orderpizza-followup"] == .number(1))
    }

    /// A lifespan of 2 lives through two answered turns: a third "yes" finds the context gone and falls back.
    @Test func contextLifespanCountsDownPerAnsweredTurn() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read().model))
        _ = try conversation.send(Self.user("order 2 small pizzas", intent: "order.pizza",
                                            [.init(entity: "count", value: "2", number: 2), .init(entity: "size", value: "small")]))
        #expect(conversation.state.context["ctx_orderpizza-followup"] == .number(2))
        let fallbackTexts = ["Sorry, what was that?", "I didn't get that. Can you say it again?"]
        let first = try conversation.send(Self.user("blah"))
        #expect(first.texts.count == 1 && fallbackTexts.contains(first.texts[0]))
        let second = try conversation.send(Self.user("blah blah"))
        #expect(second.texts.count == 1 && fallbackTexts.contains(second.texts[0]))
        #expect(conversation.state.context["ctx_orderpizza-followup"] == .number(0))
        let late = try conversation.send(Self.user("no", intent: "order.pizza - no"))
        #expect(late.visited == ["Default Fallback Intent"])
    }

    /// The same seed draws the same texts: a conversation replays exactly.
    @Test func randomTextsReplayFromTheSeed() throws {
        let dialogue = try Dialogue(try Self.read().model)
        func run(seed: UInt64) throws -> [String] {
            var conversation = Conversation(dialogue: dialogue, seed: seed)
            return try (0..<6).flatMap { _ in try conversation.send(Self.user("I want a pizza", intent: "order.pizza")).texts + conversation.send(Self.user("?")).texts }
        }
        #expect(try run(seed: 11) == run(seed: 11))
    }

    // MARK: bad agents

    static func brokenAgent(_ file: String, _ from: String, _ to: String) throws -> URL {
        let folder = TestScratch.file("dialogflow")
        try FileManager.default.copyItem(at: agent, to: folder)
        let url = folder.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
        return folder
    }

    static func expectError(_ folder: URL, file: String, field: String, reason: String) {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try read(folder)
        } throws: { error in
            guard let error = error as? JSONFileError else { return false }
            return error.file.hasSuffix(file) && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func promptNamingAnUnknownParameterIsRefused() throws {
        Self.expectError(try Self.brokenAgent("intents/order.pizza.json", "How many $size pizzas?", "How many $sizes pizzas?"),
                         file: "intents/order.pizza.json", field: "responses[0].parameters[1].prompts[0].value", reason: "'$sizes' names no parameter of the intent")
    }

    @Test func unknownEntityTypeIsRefused() throws {
        Self.expectError(try Self.brokenAgent("intents/order.pizza.json", "\"dataType\": \"@size\"", "\"dataType\": \"@pizzasize\""),
                         file: "intents/order.pizza.json", field: "responses[0].parameters[0].dataType", reason: "entity type '@pizzasize' is neither")
    }

    @Test func lifespanOutOfRangeIsRefused() throws {
        Self.expectError(try Self.brokenAgent("intents/order.pizza.json", "\"lifespan\": 2", "\"lifespan\": 100000"),
                         file: "intents/order.pizza.json", field: "responses[0].affectedContexts[0].lifespan", reason: "100000 is not a lifespan")
    }

    @Test func malformedIntentFileIsRefusedNamingIt() throws {
        let folder = try Self.brokenAgent("intents/order.pizza - yes.json", "\"auto\": true,", "\"auto\": true")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try Self.read(folder)
        } throws: { error in
            (error as? JSONFileError)?.file.hasSuffix("intents/order.pizza - yes.json") == true
        }
    }
}
