import Foundation
import NLUInputOutput
import Testing
@testable import NLUDialogue

/// An Alexa interaction model with a dialog model (Tests/Fixtures/dialogue/alexa-pizza, written in the
/// interaction model schema: `dialog.intents`, `prompts` with ids and variations) imported and run: the
/// required slots elicited in the dialog's order, the intent confirmation, the completed request for the
/// skill's code; and the models that must be refused, naming the field.
@Suite struct AlexaDialogueImporterTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue/alexa-pizza/interaction-model.json")

    static func read(_ text: String? = nil) throws -> (model: DialogueModel, warnings: [String]) {
        try DialogueImporter.read(text.map { Data($0.utf8) } ?? Data(contentsOf: file), file: "interaction-model.json")
    }

    static func modified(_ from: String, _ to: String) throws -> String {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(from))
        return text.replacingOccurrences(of: from, with: to)
    }

    static func user(_ text: String, intent: String? = nil, _ entities: [ParsedMessage.Entity] = []) -> ParsedMessage {
        ParsedMessage(text: text, intents: intent.map { [.init(intent: $0, confidence: 0.9)] } ?? [], entities: entities)
    }

    @Test func importsDialogSlotsPromptsAndConfirmation() throws {
        let (model, warnings) = try Self.read()
        #expect(model.source == "alexa")
        #expect(model.name == "pizza shop")
        #expect(model.nodes.map(\.id) == ["LaunchRequest", "AMAZON.CancelIntent", "AMAZON.HelpIntent", "AMAZON.StopIntent", "OrderPizza", "OpeningHours"])
        #expect(model.nodes[3].condition == "intents.size() > 0 && intents[0].intent == 'AMAZON.StopIntent' && intents[0].confidence >= 0.2")
        let order = model.nodes[4]
        #expect(order.condition == "#OrderPizza")
        #expect(order.slots.map(\.variable) == ["size", "count", "crust"])
        #expect(order.slots.map(\.entity) == ["PizzaSize", "count", "Crust"])
        #expect(order.slots.map(\.isRequired) == [true, true, false])
        #expect(order.slots[0].prompt == [.text(values: ["What size would you like?", "Small, medium or large?"], selection: .random)])
        #expect(order.slots[1].prompt == [.text(values: ["How many $size pizzas would you like?"], selection: .random)])
        #expect(order.confirmation?.prompt == [.text(values: ["So $count $size pizzas with $crust crust. Shall I order them?"], selection: .random)])
        #expect(warnings == [
            "intent 'OrderPizza', slot 'count': slot confirmation is not mapped (the intent's confirmation is)",
            "intent 'OrderPizza', slot 'count': validations are not mapped: any value of the slot's type is taken",
        ])
        _ = try Dialogue(model)
    }

    /// Alexa's delegated dialog: size, then count (an utterance may give both, in any order), the optional
    /// crust taken when said, the confirmation, then the completed request the skill's code would get.
    @Test func delegatedDialogElicitsConfirmsAndCompletes() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read().model))
        let first = try conversation.send(Self.user("a pizza with thin crust", intent: "OrderPizza", [.init(entity: "Crust", value: "thin")]))
        #expect(first.texts.count == 1)
        #expect(["What size would you like?", "Small, medium or large?"].contains(first.texts[0]))
        #expect(try conversation.send(Self.user("big", [.init(entity: "PizzaSize", value: "large", text: "big")])).texts
                == ["How many large pizzas would you like?"])
        #expect(try conversation.send(Self.user("hmm")).texts == ["How many large pizzas would you like?"])
        #expect(try conversation.send(Self.user("two", [.init(entity: "count", value: "2", number: 2)])).texts
                == ["So 2 large pizzas with thin crust. Shall I order them?"])
        let done = try conversation.send(Self.user("yes please", intent: "AMAZON.YesIntent"))
        #expect(done.responses == [.payload(["intent": "OrderPizza", "dialogState": "COMPLETED", "confirmationStatus": "CONFIRMED",
                                             "slots": ["size": "large", "count": 2, "crust": "thin"]])])
        // The request is complete: the next order starts from nothing.
        let next = try conversation.send(Self.user("I want 3 small pizzas", intent: "OrderPizza",
                                                  [.init(entity: "count", value: "3", number: 3), .init(entity: "PizzaSize", value: "small")]))
        #expect(next.texts == ["So 3 small pizzas with  crust. Shall I order them?"])
        #expect(next.warnings.contains { $0.contains("$crust") })
    }

    @Test func noAsksForTheSlotsAgain() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read().model))
        _ = try conversation.send(Self.user("I want 3 small pizzas", intent: "OrderPizza",
                                            [.init(entity: "count", value: "3", number: 3), .init(entity: "PizzaSize", value: "small")]))
        let declined = try conversation.send(Self.user("no"))
        #expect(declined.texts.count == 1)
        #expect(["What size would you like?", "Small, medium or large?"].contains(declined.texts[0]))
        #expect((conversation.state.context["count"] ?? .null) == .null)
    }

    @Test func intentsWithoutDialogCompleteAtOnce() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read().model))
        #expect(try conversation.send(Self.user("")).responses == [.payload(["request": "LaunchRequest"])])
        #expect(try conversation.send(Self.user("stop", intent: "AMAZON.StopIntent")).responses
                == [.payload(["intent": "AMAZON.StopIntent", "dialogState": "COMPLETED", "confirmationStatus": "NONE", "slots": [:]])])
    }

    // MARK: bad models

    static func expectError(_ text: String, field: String, reason: String) {
        #expect {
            _ = try read(text)
        } throws: { error in
            guard let error = error as? JSONFileError else { return false }
            return error.file == "interaction-model.json" && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func promptNamingAnUnknownSlotIsRefused() throws {
        Self.expectError(try Self.modified("So {count} {size}", "So {amount} {size}"), field: "interactionModel.prompts[4].variations[0].value",
                         reason: "'{amount}' names no slot of the intent")
    }

    @Test func unknownSlotTypeIsRefused() throws {
        Self.expectError(try Self.modified("\"name\": \"crust\", \"type\": \"Crust\" }", "\"name\": \"crust\", \"type\": \"Dough\" }"),
                         field: "interactionModel.languageModel.intents[3].slots[2].type", reason: "slot type 'Dough' is neither")
    }

    @Test func missingPromptIdIsRefused() throws {
        Self.expectError(try Self.modified("\"elicitation\": \"Elicit.Slot.1370485718716.size\"", "\"elicitation\": \"Elicit.Slot.nowhere\""),
                         field: "interactionModel.dialog.intents[0].slots[0].prompts.elicitation", reason: "no prompt in interactionModel.prompts has the id 'Elicit.Slot.nowhere'")
    }

    @Test func modelWithoutDialogIsRefused() throws {
        Self.expectError(#"{"interactionModel": {"languageModel": {"intents": []}}}"#, field: "interactionModel.dialog", reason: "is missing")
    }

    @Test func malformedJSONIsRefusedWithItsLine() throws {
        #expect {
            _ = try Self.read(try Self.modified("\"invocationName\": \"pizza shop\",", "\"invocationName\": \"pizza shop\""))
        } throws: { error in
            (error as? JSONFileError)?.description.contains("interaction-model.json") == true && "\(error)".contains("line")
        }
    }
}
