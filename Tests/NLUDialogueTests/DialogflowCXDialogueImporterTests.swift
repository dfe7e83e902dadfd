import Foundation
import NLUInputOutput
import NLUPipelines
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// A Dialogflow CX agent export (Tests/Fixtures/dialogue/dialogflow-cx-pizza, in CX's JSON package layout:
/// `agent.json`, `flows/<Flow>/<Flow>.json`, `flows/<Flow>/pages/<Page>.json`, `intents/`, `entityTypes/`) of a
/// pizza order with a form, imported and run against the conversations CX's documented semantics give
/// (Tests/Fixtures/dialogue/dialogflow-cx-pizza.jsonl): entry fulfillment before the first prompt, a form
/// prefilled by the intent's parameter, the initial prompt again when no reprompt handler is defined, the
/// `sys.no-match-default` reprompt handler, the `$page.params.status = "FINAL"` route, a flow intent route
/// taken in the middle of the form, `End Session` clearing the session's parameters, route groups (the flow's
/// `Help` listed by one page, the agent's `Small talk` listed by the flow and so in scope on every page).
@Suite struct DialogflowCXDialogueImporterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue")
    static let agent = fixtures.appendingPathComponent("dialogflow-cx-pizza")

    static func read() throws -> (model: DialogueModel, warnings: [String]) {
        try #require(try DialogueExport.read(agent))
    }

    @Test func importsPagesFormsAndRoutesInCXOrder() throws {
        let (model, warnings) = try Self.read()
        #expect(model.source == "dialogflow-cx")
        #expect(model.name == "pizza-cx")
        let nodes = Dictionary(uniqueKeysWithValues: model.nodes.map { ($0.id, $0) })
        // The page's own intent routes, then the flow's (in scope on every page) and the flow's route group's,
        // then the no-match handler.
        #expect(model.nodes.filter { $0.parent == "Confirm" }.map(\.id) == [
            "Confirm/entry", "Confirm/wait", "Confirm/turn", "Confirm/route[0]", "Confirm/route[1]",
            "Confirm/flow route[0]", "Confirm/flow route[1]", "Confirm/flow route[2]",
            "Confirm/flow group 'Small talk' route[0]", "Confirm/no-match",
        ])
        // The page's route group comes after its own routes and before the flow's.
        #expect(model.nodes.filter { $0.parent == "Order" }.map(\.id) == [
            "Order/form", "Order/entry", "Order/entry route[0]", "Order/wait", "Order/turn", "Order/group 'Help' route[0]",
            "Order/flow route[0]", "Order/flow route[1]", "Order/flow route[2]", "Order/flow group 'Small talk' route[0]",
            "Order/route[0]", "Order/no-match",
        ])
        #expect(try #require(nodes["Default Start Flow/group 'Small talk' route[0]"]).condition == "(\(IntentCondition.matching("smalltalk.thanks")))")
        let form = try #require(nodes["Order/form"])
        #expect(form.slots.map(\.variable) == ["size", "topping", "count"])
        #expect(form.slots.map(\.entity) == ["size", "topping", "sys.number"])
        #expect(form.slots.map(\.isRequired) == [true, true, false])
        #expect(form.slots[0].prompt == [.text(values: ["What size would you like?"], selection: .random)])
        #expect(form.slots[0].noMatch == [ConditionalResponse(responses: [.text(values: ["Small or large?"], selection: .random)])])
        #expect(form.slots[1].noMatch.isEmpty)
        // The page's route group's and the flow's intent routes interrupt the form; "order.cancel" ends the session.
        #expect(form.slotHandlers.count == 5)
        #expect(form.slotHandlers[0].responses == [.text(values: ["I take pizza orders: tell me a size and a topping."], selection: .random)])
        #expect(form.slotHandlers[3].next == DialogueNode.Next(action: .jump, target: "end of session", selector: .body))
        let final = try #require(nodes["Order/entry route[0]"])
        #expect(final.condition == "(($size != null && $topping != null))")
        #expect(final.next == DialogueNode.Next(action: .jump, target: "Confirm", selector: .body))
        #expect(try #require(nodes["Order"]).context == ["channel": "chat"])
        #expect(try #require(nodes["Confirm"]).responses == [.text(values: ["A $size pizza with $topping. Shall I place the order?"], selection: .random)])
        #expect(try #require(nodes["Confirm/route[1]"]).context == ["size": .null, "topping": .null])
        #expect(try #require(nodes["Confirm/route[0]"]).responses.last
                == DialogueResponse.payload(["action": "place_order", "size": "$size", "topping": "$topping"]))
        #expect(try #require(nodes["end of session"]).context == ["channel": .null, "count": .null, "size": .null, "topping": .null])
        #expect(warnings == [
            "flow 'Default Start Flow': eventHandlers[1]: event 'sys.no-input-default' is not mapped",
            "flow 'Default Start Flow', page 'Confirm': transitionRoutes[0].triggerFulfillment: webhook 'place-order' is not called",
        ])
    }

    @Test func scriptedConversationsGiveCXsResponses() throws {
        let dialogue = try Dialogue(try Self.read().model)
        let conversations = try ScriptedConversation.read(Self.fixtures.appendingPathComponent("dialogflow-cx-pizza.jsonl"))
        #expect(conversations.count == 3)
        #expect(try ConversationTester(dialogue: dialogue).run(conversations) == [])
    }

    /// A session continues from its stored state: the page and the form's progress are in it.
    @Test func aSessionContinuesFromItsState() throws {
        let dialogue = try Dialogue(try Self.read().model)
        var state = dialogue.newState()
        state = try dialogue.respond(to: ParsedMessage(text: "order", intents: [.init(intent: "order.pizza", confidence: 0.9)]), state: state).state
        let stored = try JSONEncoder().encode(state)
        let restored = try JSONDecoder().decode(DialogueState.self, from: stored)
        let turn = try dialogue.respond(to: ParsedMessage(text: "big", entities: [.init(entity: "size", value: "large")]), state: restored)
        #expect(turn.texts == ["Which topping? We have mushrooms, ham and olives."])
    }

    @Test func conditionsAndReferencesBecomeNLUKitExpressions() {
        let required = ["size", "topping"]
        #expect(DialogflowCXExpressions.condition(#"$page.params.status = "FINAL""#, required: required).expression
                == "($size != null && $topping != null)")
        #expect(DialogflowCXExpressions.condition(#"$page.params.status != "FINAL" OR NOT $session.params.size = "large""#, required: [])
                .expression == #"!true || ! $size == "large""#)
        #expect(DialogflowCXExpressions.condition(#"$session.params.count >= 2 AND $page.params.size != null"#, required: required).expression
                == "$count >= 2 && $size != null")
        #expect(DialogflowCXExpressions.condition(#"$sys.func.IS_DATE($session.params.d)"#, required: []).problem
                == "the reference $sys.func.IS_DATE is not supported")
        #expect(DialogflowCXExpressions.condition(#"$session.params.list : "a""#, required: []).problem == "the ':' (has) operator is not supported")
        #expect(DialogflowCXExpressions.condition(#"$page.params.status = "OPEN""#, required: []).problem
                == #"$page.params.status is only read compared with "FINAL""#)
        #expect(DialogflowCXExpressions.template("A $session.params.size pizza.").text == "A $size pizza.")
        let dropped = DialogflowCXExpressions.template("Hi $intent.params.name, 5$ each")
        #expect(dropped.text == "Hi , 5$ each")
        #expect(dropped.unsupported == ["$intent.params.name"])
    }

    /// A route group no flow or agent file defines is refused at import, naming the file and the field.
    @Test func aMissingRouteGroupIsRefused() throws {
        let copy = TestScratch.file("cx-missing-group")
        try FileManager.default.copyItem(at: Self.agent, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("flows/Default Start Flow/transitionRouteGroups/Help.json"))
        #expect {
            _ = try DialogueExport.read(copy)
        } throws: { error in
            let description = "\(error)"
            return description.contains("Order.json") && description.contains("transitionRouteGroups[0]")
                && description.contains("'Help' names no route group of flow 'Default Start Flow' or of the agent (its route groups: Small talk)")
        }
    }

    /// A route to a page the flow lacks is refused at import, naming the file and the field.
    @Test func aRouteToAMissingPageIsRefused() throws {
        let copy = TestScratch.file("cx-missing-page")
        try FileManager.default.copyItem(at: Self.agent, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let confirm = copy.appendingPathComponent("flows/Default Start Flow/pages/Confirm.json")
        try FileManager.default.removeItem(at: confirm)
        do {
            _ = try DialogueExport.read(copy)
            Issue.record("a route to a missing page was imported")
        } catch {
            let description = "\(error)"
            #expect(description.contains("Order.json"))
            #expect(description.contains("transitionRoutes[0].targetPage"))
            #expect(description.contains("'Confirm' names no page of flow 'Default Start Flow' (its pages: Order)"))
        }
    }
}
