import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// Starting a conversation over: Rasa's `/restart` (its default intent `restart` → `action_restart`, which says
/// `utter_restart`, resets the tracker — slots to their initial values, no form — and runs the session start),
/// `action_restart` named by a rule, and NLUKit's own `Conversation.restart()` / `/restart` for node dialogues
/// (the state cleared, the `welcome` node run again). Semantics from Rasa 3.6's `ActionRestart`, `Restarted`
/// and `RulePolicy._find_action_from_default_actions`.
@Suite struct ConversationRestartTests {
    static func formbot() throws -> Dialogue {
        try Dialogue(try RasaDialogueImporter.read(project: RasaDialogueTests.formbot).model)
    }

    static let restart = ParsedMessage(text: "/restart", intents: [.init(intent: "restart", confidence: 1)])

    /// Mid-form, `/restart` overrules the form (Rasa's default actions come first), says formbot's
    /// `utter_restart`, and leaves a conversation with no slot, no form and no history: the next request
    /// starts the form from its first question.
    @Test func rasaRestartInsideTheFormClearsEverything() throws {
        var conversation = Conversation(dialogue: try Self.formbot())
        _ = try conversation.send(RasaDialogueTests.user("greet", "hi"))
        _ = try conversation.send(RasaDialogueTests.user("request_restaurant"))
        _ = try conversation.send(RasaDialogueTests.user("inform", "thai", entities: [.init(entity: "cuisine", value: "thai")]))
        #expect(conversation.state.context["cuisine"] == .string("thai"))
        #expect(conversation.state.tracker?.activeLoop == "restaurant_form")
        let turn = try conversation.send(Self.restart)
        #expect(turn.texts == ["restarted"])
        #expect(turn.visited == ["action_restart"])
        #expect(conversation.state.context["cuisine"] == nil && conversation.state.context["requested_slot"] == nil)
        #expect(conversation.state.tracker?.activeLoop == nil)
        #expect(conversation.state.tracker?.events == [.action("action_listen")])
        #expect(conversation.state.turn == 1)
        #expect(try conversation.send(RasaDialogueTests.user("request_restaurant")).texts == ["What cuisine?"])
        #expect(try conversation.send(RasaDialogueTests.user("inform", "indian", entities: [.init(entity: "cuisine", value: "indian")])).texts
                == ["How many people?"])
    }

    /// The intent `restart` restarts however it was recognized (a classifier's prediction too), and
    /// `Conversation.restart()` is the same as the message.
    @Test func rasaRestartByIntentAndByTheAPI() throws {
        let dialogue = try Self.formbot()
        var byIntent = Conversation(dialogue: dialogue)
        _ = try byIntent.send(RasaDialogueTests.user("request_restaurant"))
        #expect(try byIntent.send(RasaDialogueTests.user("restart", "start over please")).visited == ["action_restart"])
        var byAPI = Conversation(dialogue: dialogue)
        _ = try byAPI.send(RasaDialogueTests.user("request_restaurant"))
        let turn = try byAPI.restart()
        #expect(turn.texts == ["restarted"])
        #expect(byAPI.state == byIntent.state)
    }

    /// A rule that ends with `action_restart` (a goodbye that forgets the user): the rule's response, the
    /// restart's, and the slots back to their initial values — a slot with `initial_value` gets it again.
    @Test func aRuleNamingActionRestart() throws {
        let dialogue = try RasaDialogueTests.domain("""
            version: "3.1"
            slots:
              name:
                type: text
                mappings: [{type: from_entity, entity: name}]
              visits:
                type: float
                initial_value: 1
                mappings: [{type: from_entity, entity: visits}]
            responses:
              utter_bye: [{text: "Bye {name}."}]
              utter_restart: [{text: "Starting over."}]
              utter_hi: [{text: "Hi {name}!"}]
            """, rules: """
            version: "3.1"
            rules:
            - rule: hi
              steps: [{intent: greet}, {action: utter_hi}]
            - rule: bye forgets
              steps: [{intent: goodbye}, {action: utter_bye}, {action: action_restart}]
            """)
        var conversation = Conversation(dialogue: dialogue)
        _ = try conversation.send(ParsedMessage(text: ""))
        let hi = try conversation.send(ParsedMessage(text: "hi, I am Ada", intents: [.init(intent: "greet", confidence: 0.9)],
                                                     entities: [.init(entity: "name", value: "Ada"), .init(entity: "visits", value: "3", number: 3)]))
        #expect(hi.texts == ["Hi Ada!"])
        #expect(conversation.state.context["visits"] == .number(3))
        let bye = try conversation.send(ParsedMessage(text: "bye", intents: [.init(intent: "goodbye", confidence: 0.9)]))
        #expect(bye.texts == ["Bye Ada.", "Starting over."])
        #expect(bye.visited == ["utter_bye", "action_restart"])
        #expect(conversation.state.context["name"] ?? .null == .null)
        #expect(conversation.state.context["visits"] == .number(1))
    }

    /// Rasa's `/back` (`action_back`): the user's last two messages are taken back with what followed them —
    /// the slot the earlier one filled is empty again and the form asks from there; a second `/back` goes back
    /// one more message. Nothing is said (formbot has no `utter_back`).
    @Test func rasaBackTakesBackTheLastMessage() throws {
        var conversation = Conversation(dialogue: try Self.formbot())
        func send(_ text: String) throws -> DialogueTurn { try conversation.send(try #require(PayloadMessage.parse(text)?.message)) }
        #expect(try send("/request_restaurant").texts == ["What cuisine?"])
        #expect(try send("/inform{\"cuisine\": \"thai\"}").texts == ["How many people?"])
        let back = try send("/back")
        #expect(back.texts.isEmpty && back.visited == ["action_back"])
        #expect(conversation.state.context["cuisine"] == .null)
        #expect(conversation.state.context["requested_slot"] == .string("cuisine"))
        #expect(conversation.state.tracker?.activeLoop == "restaurant_form")
        #expect(try send("/inform{\"cuisine\": \"greek\"}").texts == ["How many people?"])
        #expect(try send("/inform{\"number\": 3}").texts == ["Do you want to sit outside?"])
        _ = try send("/back")
        _ = try send("/back")
        #expect(conversation.state.context["cuisine"] == .null)
        #expect(conversation.state.context["num_people"] == .null)
        #expect(try send("/inform{\"cuisine\": \"thai\"}").texts == ["How many people?"])
    }

    /// A node dialogue (NLUKit's own, Watson's) restarts on `/restart` or `Conversation.restart()`: the context
    /// and the position are cleared, the welcome node answers again, and random responses go on (the generator
    /// is not reset). A typed "restart" classified as an intent is left to the dialogue's own nodes.
    @Test func nodeDialogueRestartRunsTheWelcomeAgain() throws {
        let dialogue = try DialogueRuntimeTests.dialogue()
        var conversation = Conversation(dialogue: dialogue, seed: 7)
        #expect(try conversation.send(ParsedMessage(text: "")).texts == ["Hi! Pizza or pasta?"])
        #expect(try conversation.send(DialogueRuntimeTests.say("a pizza", "order")).texts == ["Which size?"])
        #expect(conversation.state.position == .slot(frame: "order", slot: "size"))
        let random = conversation.state.random
        let restarted = try conversation.send(Self.restart)
        #expect(restarted.texts == ["Hi! Pizza or pasta?"])
        #expect(restarted.visited == ["welcome"])
        #expect(conversation.state.position == nil)
        #expect(conversation.state.context == ["orders": .number(0)])
        #expect(conversation.state.turn == 1)
        #expect(conversation.state.random == random)
        // The sequential prompt starts from its first text again: counters are part of what is cleared.
        #expect(try conversation.send(DialogueRuntimeTests.say("a pizza", "order")).texts == ["Which size?"])
        #expect(try conversation.restart().texts == ["Hi! Pizza or pasta?"])
        // Not the payload: an intent named restart is an ordinary intent here (no node takes it: the fallback).
        #expect(try conversation.send(DialogueRuntimeTests.say("restart", "restart")).texts == ["Sorry, I did not get that."])
    }

    /// Watson's car dashboard: after the lights were turned on and the restaurant flow began, `/restart` says
    /// the greeting again and its welcome node sets the flags afresh.
    @Test func carDashboardRestartsMidFlow() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dialogue/watson-car-dashboard/car_workspace.json")
        let dialogue = try Dialogue(try DialogueImporter.read(Data(contentsOf: url), file: url.path).model)
        var conversation = Conversation(dialogue: dialogue)
        let greeting = try conversation.send(ParsedMessage(text: "")).texts
        _ = try conversation.send(ParsedMessage(text: "turn on the lights", intents: [.init(intent: "turn_on", confidence: 0.9)],
                                                entities: [.init(entity: "appliance", value: "lights")]))
        #expect(conversation.state.context["lightonoff"] == .string("on"))
        _ = try conversation.send(ParsedMessage(text: "find a restaurant", intents: [.init(intent: "locate_amenity", confidence: 0.9)],
                                                entities: [.init(entity: "amenity", value: "restaurant")]))
        #expect(conversation.state.position != nil)
        let restarted = try conversation.send(Self.restart)
        #expect(restarted.texts == greeting)
        #expect(conversation.state.context["lightonoff"] == .string("off"))
        #expect(conversation.state.position == nil)
    }

    /// Through a store: `/restart` on a conversation not started is its start (one greeting, not two); on a
    /// running one it clears it.
    @Test func storeRestartsOnceAndKeepsTheConversation() async throws {
        let dialogue = try DialogueRuntimeTests.dialogue()
        let store = MemoryConversationStore(expiry: try ConversationExpiry())
        let id = try ConversationID("user-1")
        let first = try await store.respond(to: Self.restart, in: id, dialogue: dialogue)
        #expect(first.started)
        #expect(first.responses.compactMap(\.text) == ["Hi! Pizza or pasta?"])
        _ = try await store.respond(to: DialogueRuntimeTests.say("a pizza", "order"), in: id, dialogue: dialogue)
        let again = try await store.respond(to: Self.restart, in: id, dialogue: dialogue)
        #expect(!again.started)
        #expect(again.responses.compactMap(\.text) == ["Hi! Pizza or pasta?"])
        // Each awaited call on a line of its own: inside #expect, or with `try` arguments, this function crashed
        // the Swift 6.3.1 optimizer (CoroSplit, release with -enable-testing).
        let stored = try await store.conversation(id)
        #expect(stored?.state.position == nil)
        let formbot = try Self.formbot()
        let other = try ConversationID("user-2")
        let rasa = try await store.respond(to: Self.restart, in: other, dialogue: formbot)
        #expect(rasa.responses.compactMap(\.text) == ["restarted"])
    }

    /// A test story with `/restart` replays as a live conversation does: after `action_restart` the form is
    /// gone, and a greeting is answered by the greeting rule.
    @Test func testStoryWithRestart() throws {
        let folder = try TestScratch.folder("restart-story")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("test_restart.yml")
        try """
        stories:
        - story: restart inside the form
          steps:
          - user: hi
            intent: greet
          - action: utter_greet
          - user: im looking for a restaurant
            intent: request_restaurant
          - action: restaurant_form
          - active_loop: restaurant_form
          - user: /restart
          - action: action_restart
          - user: hi
            intent: greet
          - action: utter_greet
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(try ConversationTester(dialogue: try Self.formbot()).run(try ScriptedConversation.read(file)) == [])
    }
}
