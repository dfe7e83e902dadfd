import Foundation
import Testing
@testable import NLUDialogue

/// A small pizza bot in NLUKit's own dialogue format, driven turn by turn with messages written by hand
/// (no classifier): each expected answer is worked out from the node semantics in docs/dialogue.md.
@Suite struct DialogueRuntimeTests {
    static let bot = #"""
    {
      "format": "nlu-dialogue", "formatVersion": 1, "name": "pizza",
      "fallback": [{"type": "text", "values": ["Sorry, I did not get that."]}],
      "nodes": [
        {"id": "welcome", "condition": "welcome", "context": {"orders": 0},
         "responses": [{"type": "text", "values": ["Hi! Pizza or pasta?"]}]},
        {"id": "order", "condition": "#order", "digressOutSlots": "allowReturning",
         "slots": [
           {"variable": "size", "entity": "size",
            "prompt": [{"type": "text", "values": ["Which size?", "Small, medium or large?"], "selection": "sequential"}],
            "noMatch": [{"condition": "#order", "responses": [{"type": "text", "values": ["You are ordering already. Which size?"]}]}]},
           {"variable": "count", "entity": "sys-number",
            "prompt": [{"type": "text", "values": ["How many?"]}],
            "filled": [{"condition": "$count > 9", "responses": [{"type": "text", "values": ["That is a party!"]}]}]},
           {"variable": "note", "condition": "@note", "value": "@note"}
         ],
         "slotHandlers": [{"condition": "#cancel", "responses": [{"type": "text", "values": ["Order cancelled."]}], "action": "cancel"}],
         "confirmation": {"prompt": [{"type": "text", "values": ["$count $size pizza(s)$note?"]}], "yes": "#yes", "no": "#no",
                          "denied": [{"type": "text", "values": ["Let's start again."]}]},
         "context": {"orders": "<? $orders + 1 ?>"},
         "responses": [{"type": "text", "values": ["Ordered $count $size. Order number $orders."]},
                       {"type": "payload", "payload": {"action": "place_order", "size": "$size", "count": "$count"}}]},
        {"id": "hours", "condition": "#hours", "digressIn": "returns",
         "responses": [{"type": "text", "values": ["We open at 11.", "Every day."], "selection": "multiline"}]},
        {"id": "joke", "condition": "#joke",
         "responses": [{"type": "text", "values": ["a", "b", "c", "d", "e", "f", "g", "h"], "selection": "random"}]},
        {"id": "menu", "condition": "#menu", "responses": [
           {"type": "options", "title": "We have:", "options": [{"label": "Pizza", "value": "order a pizza"}, {"label": "Pasta", "value": "pasta"}]}]},
        {"id": "pasta", "condition": "@dish:pasta", "responses": [{"type": "text", "values": ["Sauce?"]}]},
        {"id": "tomato", "parent": "pasta", "condition": "@sauce:tomato", "responses": [{"type": "text", "values": ["Tomato it is."]}],
         "next": {"action": "jump", "target": "thanks", "selector": "body"}},
        {"id": "cream", "parent": "pasta", "condition": "@sauce:cream", "responses": [{"type": "text", "values": ["Cream, then. Anything else?"]}],
         "next": {"action": "jump", "target": "anything", "selector": "userInput"}},
        {"id": "thanks", "responses": [{"type": "text", "values": ["Thanks!"]}]},
        {"id": "anything", "condition": "#no", "responses": [{"type": "text", "values": ["Bye."]}]},
        {"id": "loop_a", "condition": "#loop", "next": {"action": "jump", "target": "loop_b", "selector": "condition"}},
        {"id": "loop_b", "condition": "#loop", "next": {"action": "jump", "target": "loop_a", "selector": "condition"}}
      ]
    }
    """#

    static func dialogue() throws -> Dialogue {
        try Dialogue(try DialogueModel.decode(from: Data(bot.utf8), file: "pizza.json"))
    }

    /// A message with one intent (confidence 0.9) and the given entities.
    static func say(_ text: String, _ intent: String? = nil, _ entities: [(String, String)] = []) -> ParsedMessage {
        ParsedMessage(text: text, intents: intent.map { [.init(intent: $0, confidence: 0.9)] } ?? [],
                      entities: entities.map { .init(entity: $0.0, value: $0.1, number: $0.0 == "sys-number" ? Double($0.1) : nil) })
    }

    /// Runs the turns in order from a new state and returns every turn.
    static func converse(_ dialogue: Dialogue, _ messages: [ParsedMessage], seed: UInt64 = 0) throws -> [DialogueTurn] {
        var state = dialogue.newState(seed: seed)
        var turns: [DialogueTurn] = []
        for message in messages {
            let turn = try dialogue.respond(to: message, state: state)
            turns.append(turn)
            // Through JSON each time, as an app that stores the state between turns does.
            state = try JSONDecoder().decode(DialogueState.self, from: JSONEncoder().encode(turn.state))
        }
        return turns
    }

    @Test func slotsArePromptedValidatedByTypeConfirmedAndAnswered() throws {
        let turns = try Self.converse(try Self.dialogue(), [
            Self.say(""),
            Self.say("I want pizza", "order"),
            Self.say("hmm", nil),                                     // fills nothing: asked again, next text
            Self.say("order!", "order"),                              // the slot's no-match answer
            Self.say("large please", nil, [("size", "large"), ("note", " extra cheese")]),   // the optional slot too
            Self.say("twelve", nil, [("sys-number", "12")]),
            Self.say("yes", "yes"),
        ])
        #expect(turns.map(\.texts) == [
            ["Hi! Pizza or pasta?"],
            ["Which size?"],
            ["Small, medium or large?"],
            ["You are ordering already. Which size?"],
            ["How many?"],
            ["That is a party!", "12 large pizza(s) extra cheese?"],
            ["Ordered 12 large. Order number 1."],
        ])
        let last = try #require(turns.last)
        #expect(last.responses.last == .payload(["action": "place_order", "size": "large", "count": 12]))
        #expect(last.state.context["orders"] == 1)
        #expect(last.state.position == nil)
        #expect(turns[4].state.position == .slot(frame: "order", slot: "count"))
    }

    @Test func bothSlotsInOneTurnAndADeniedConfirmationStartsAgain() throws {
        let turns = try Self.converse(try Self.dialogue(), [
            Self.say("two small pizzas", "order", [("size", "small"), ("sys-number", "2")]),
            Self.say("no", "no"),
            Self.say("cancel", "cancel"),
        ])
        #expect(turns.map(\.texts) == [["2 small pizza(s)?"], ["Let's start again.", "Which size?"], ["Order cancelled."]])
        #expect(turns[2].state.context["size"] == nil && turns[2].state.position == nil)
    }

    @Test func aDigressionFromSlotsReturnsToThePrompt() throws {
        let turns = try Self.converse(try Self.dialogue(), [
            Self.say("pizza", "order"),
            Self.say("when do you open?", "hours"),
            Self.say("medium", nil, [("size", "medium")]),
        ])
        #expect(turns.map(\.texts) == [["Which size?"], ["We open at 11.", "Every day.", "Small, medium or large?"], ["How many?"]])
        #expect(turns[1].visited == ["order", "hours"])
    }

    @Test func childrenJumpsAndTheFallback() throws {
        let dialogue = try Self.dialogue()
        let body = try Self.converse(dialogue, [Self.say("pasta", nil, [("dish", "pasta")]), Self.say("tomato", nil, [("sauce", "tomato")])])
        #expect(body.map(\.texts) == [["Sauce?"], ["Tomato it is.", "Thanks!"]])
        #expect(body[0].state.position == .children(node: "pasta"))
        let waiting = try Self.converse(dialogue, [Self.say("pasta", nil, [("dish", "pasta")]), Self.say("cream", nil, [("sauce", "cream")]),
                                                   Self.say("no", "no")])
        #expect(waiting.map(\.texts) == [["Sauce?"], ["Cream, then. Anything else?"], ["Bye."]])
        #expect(waiting[1].state.position == .jumpTarget(node: "anything"))
        let fallback = try Self.converse(dialogue, [Self.say("blah")])
        #expect(fallback[0].texts == ["Sorry, I did not get that."])
        let options = try Self.converse(dialogue, [Self.say("menu?", "menu")])
        #expect(options[0].responses == [.options(title: "We have:", description: nil, preference: nil,
                                                  options: [.init(label: "Pizza", value: "order a pizza"), .init(label: "Pasta", value: "pasta")])])
    }

    @Test func randomResponsesRepeatForTheSameSeed() throws {
        let dialogue = try Self.dialogue()
        let jokes = Array(repeating: Self.say("joke", "joke"), count: 6)
        let first = try Self.converse(dialogue, jokes, seed: 42).flatMap(\.texts)
        #expect(try Self.converse(dialogue, jokes, seed: 42).flatMap(\.texts) == first)
        #expect(try Self.converse(dialogue, jokes, seed: 7).flatMap(\.texts) != first)
        #expect(Set(first).count > 1)
    }

    @Test func aLoopOfJumpsStopsAtTheStepLimit() throws {
        #expect(throws: DialogueError.self) { try Self.converse(try Self.dialogue(), [Self.say("loop", "loop")]) }
        do {
            _ = try Self.converse(try Self.dialogue(), [Self.say("loop", "loop")])
        } catch let error as DialogueError {
            guard case .stepLimitExceeded(let limit, let nodes) = error else { Issue.record("\(error)"); return }
            #expect(limit == 100 && Set(nodes) == ["loop_a", "loop_b"])
        }
    }

    @Test func aStateOfAnotherDialogueIsRefused() throws {
        let dialogue = try Self.dialogue()
        var model = dialogue.model
        model.nodes[0].responses = [.text(values: ["Hello"], selection: .sequential)]
        let other = try Dialogue(model)
        #expect(other.fingerprint != dialogue.fingerprint)
        #expect(throws: DialogueError.stateFromAnotherDialogue(expected: other.fingerprint, found: dialogue.fingerprint)) {
            try other.respond(to: Self.say("hi"), state: dialogue.newState())
        }
        var state = dialogue.newState()
        state.position = .children(node: "nowhere")
        #expect(throws: DialogueError.invalidState("no node 'nowhere'")) { try dialogue.respond(to: Self.say("hi"), state: state) }
    }

    @Test func modelErrorsNameTheNodeTheFieldAndTheOffset() throws {
        func error(_ nodes: [DialogueNode]) -> String? {
            do { _ = try Dialogue(DialogueModel(nodes: nodes)); return nil } catch { return error.description }
        }
        #expect(error([DialogueNode(id: "a", condition: "#x &&")])
            == "node 'a', field 'condition': offset 5 in '#x &&': expected a value, found the end of the expression")
        #expect(error([DialogueNode(id: "a", responses: [.text(values: ["ok", "at <? $t.format() ?>"], selection: .sequential)])])
            == "node 'a', field 'responses[0].values[1]': offset 9 in 'at <? $t.format() ?>': unsupported method 'format' (supported: size(), length(), contains(), toLowerCase(), toUpperCase(), trim(), isEmpty())")
        #expect(error([DialogueNode(id: "a", next: .init(action: .jump, target: "b", selector: .body))])
            == "node 'a', field 'next.target': no node has the id 'b'")
        #expect(error([DialogueNode(id: "a", next: .init(action: .jump, target: "b", selector: .body)),
                       DialogueNode(id: "b", next: .init(action: .jump, target: "a", selector: .body))])
            == "node 'a', field 'next': jumps loop without waiting for the user: a → b → a")
        #expect(error([DialogueNode(id: "a"), DialogueNode(id: "a")]) == "node 'a', field 'id': is used by another node too")
        #expect(error([DialogueNode(id: "a", slots: [DialogueSlot(variable: "$x", entity: "e")])])
            == "node 'a', field 'slots[0].variable': '$x' is not a variable name (write it without '$')")
    }

    @Test func aConversationKeepsItsStateAndLosesNothingOnAFailedTurn() throws {
        let dialogue = try Self.dialogue()
        var conversation = Conversation(dialogue: dialogue, seed: 3)
        #expect(throws: DialogueError.self) { try conversation.send(Self.say("loop", "loop")) }
        #expect(conversation.state == dialogue.newState(seed: 3))
        #expect(try conversation.send(Self.say("pasta", nil, [("dish", "pasta")])).texts == ["Sauce?"])
        #expect(try conversation.send(Self.say("cream", nil, [("sauce", "cream")])).texts == ["Cream, then. Anything else?"])
        #expect(conversation.state.turn == 2)
        let resumed = Conversation(dialogue: dialogue, state: conversation.state)
        #expect(resumed.state.position == .jumpTarget(node: "anything"))
    }

    @Test func theModelRoundTripsThroughItsFile() throws {
        let dialogue = try Self.dialogue()
        let decoded = try DialogueModel.decode(from: try dialogue.model.encoded(), file: "again.json")
        #expect(decoded == dialogue.model)
        #expect(try Dialogue(decoded).fingerprint == dialogue.fingerprint)
        let outputs: [DialogueOutput] = [.text("a"), .options(title: "t", description: nil, preference: "button", options: [.init(label: "l", value: "v")]),
                                         .image(source: "/a.png", title: "A", description: nil), .pause(milliseconds: 500, typing: true),
                                         .payload(["ui_action": ["lights_on": ""]])]
        #expect(try JSONDecoder().decode([DialogueOutput].self, from: JSONEncoder().encode(outputs)) == outputs)
        #expect(throws: (any Error).self) {
            try DialogueModel.decode(from: Data(#"{"format": "nlu-dialogue", "formatVersion": 2, "nodes": []}"#.utf8), file: "new.json")
        }
    }
}
