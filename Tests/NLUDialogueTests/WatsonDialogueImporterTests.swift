import Foundation
import Testing
@testable import NLUDialogue

/// IBM's car-dashboard workspace (Tests/Fixtures/dialogue/watson-car-dashboard, Apache-2.0): its 144-node
/// dialog imported and driven through whole conversations with messages parsed by hand, each expected
/// answer read from the node the workspace defines for it (node ids in the comments).
@Suite struct WatsonDialogueImporterTests {
    static let workspace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue/watson-car-dashboard/car_workspace.json")

    static func imported() throws -> (dialogue: Dialogue, warnings: [String]) {
        let (model, warnings) = try WatsonDialogueImporter.read(try Data(contentsOf: workspace), file: "car_workspace.json")
        return (try Dialogue(model), warnings)
    }

    static func say(_ text: String, _ intent: String? = nil, _ entities: [(String, String)] = []) -> ParsedMessage {
        DialogueRuntimeTests.say(text, intent, entities)
    }

    @Test func theWholeDialogImportsWithItsUnsupportedPartsListed() throws {
        let (dialogue, warnings) = try Self.imported()
        // 144 nodes: 86 conditional responses (2 disabled), 4 slots and 8 handlers fold into their nodes.
        #expect(dialogue.model.nodes.count == 46)
        #expect(dialogue.model.nodes.first?.id == "Start And Initialize Context")
        #expect(dialogue.roots == ["Start And Initialize Context", "node_8_1529544555574", "node_5_1529544284022",
                                   "node_7_1529544474042", "node_2_1487280430136"])
        let frame = try #require(dialogue.model.nodes.first { $0.id == "Restaurant Date Time Collection" })
        #expect(frame.slots.map(\.variable) == ["date", "time"])
        #expect(frame.slots[0].condition == "@sys-date" && frame.slots[0].value == "@sys-date")
        #expect(warnings.contains { $0.hasPrefix("node 'Restaurant Date Time Collection': output.text: expression '<?$time.reformatDateTime('h:mm a') ?>' is not supported (unsupported method 'reformatDateTime'") })
        #expect(warnings.contains("node 'slot_32_1530147346206': slot of node 'node_2_1530146783344', whose slots are turned off (it is not a frame); ignored"))
        // 2 slots of a node whose slots are off, 10 date formats (reformatDateTime, now()) of which 6 keep their variable.
        #expect(warnings.count == 12, "\(warnings)")
        #expect(warnings.filter { $0.hasSuffix("left out") }.count == 4)
    }

    @Test func greetingThenApplianceCommandsFollowTheContext() throws {
        let (dialogue, _) = try Self.imported()
        let turns = try DialogueRuntimeTests.converse(dialogue, [
            Self.say(""),                                                        // conversation_start
            Self.say("turn on the lights", "turn_on", [("appliance", "lights")]),
            Self.say("switch the lights on", "turn_on", [("appliance", "lights")]),
            Self.say("turn up the lights", "turn_up", [("appliance", "lights")]),
            Self.say("turn off the lights", "turn_off", [("appliance", "lights")]),
            Self.say("hello", "greetings"),
        ])
        #expect(turns.map(\.texts) == [
            ["Hi. It looks like a nice drive today. What would you like me to do?  "],
            ["I'll turn on the lights for you."],                                 // node_14_1530146887536
            ["It looks like the lights are already on."],                         // node_13_1530146887536
            ["I've turned up the lights for you."],                               // node_9_1530158221492
            ["I'll turn off the lights for you."],                                // node_16_1530146887536
            ["Hello! I'm here to help you. Just say the word."],                  // node_7_1468608329601
        ])
        #expect(turns[1].responses.last == .payload(["ui_action": ["lights_on": ""]]))
        #expect(turns[1].state.context["lightonoff"] == "on" && turns[4].state.context["lightonoff"] == "off")
        #expect(turns[0].state.context["default_counter"] == 0)
    }

    @Test func restaurantFlowFillsDateAndTimeSlots() throws {
        let (dialogue, _) = try Self.imported()
        let turns = try DialogueRuntimeTests.converse(dialogue, [
            Self.say(""),
            Self.say("find me a restaurant", "locate_amenity", [("amenity", "restaurant")]),
            Self.say("thai", nil, [("cuisine", "thai")]),
            Self.say("the second one", nil, [("sys-number", "2")]),
            Self.say("tomorrow", nil, [("sys-date", "2026-12-03")]),
            Self.say("at 7pm", nil, [("sys-time", "19:00:00")]),
            Self.say("find a restaurant", "locate_amenity", [("amenity", "restaurant")]),
        ])
        #expect(turns.map(\.texts) == [
            ["Hi. It looks like a nice drive today. What would you like me to do?  "],
            ["There are a number of restaurants nearby. Which cuisine would you like?"],     // node_10_1467233806357
            ["I've found 5 restaurant locations for you. Which one would you like to drive to?"],   // node_13_1467234287024
            ["Sure! Restaurant 2 gets great reviews.", "What day, or date, would you like to go to the restaurant?"],
            ["What time would you like to go to the restaurant?"],                   // slot $time's focus handler
            ["Ok, let's go to the restaurant at 19:00:00, on 2026-12-03."],         // the frame, dates unformatted
            ["Last time you had thai, would you like that again?"],                 // node_2_1505947796902
        ])
        #expect(turns[3].state.position == .slot(frame: "Restaurant Date Time Collection", slot: "date"))
        // The frame's child "Clear Restaurant Date Time Data" empties the slots for the next visit.
        #expect(turns[5].state.context["previous_restaurant_time"] == "19:00:00")
        #expect(turns[5].state.context["date"] == .null && turns[5].state.context["time"] == .null)
        #expect(turns[2].responses.contains(.image(source: "/img/map-restaurant.png", title: nil, description: nil)))
    }

    @Test func anInvalidChoiceJumpsBackAndADigressionReturns() throws {
        let (dialogue, _) = try Self.imported()
        let turns = try DialogueRuntimeTests.converse(dialogue, [
            Self.say(""),
            Self.say("find a gas station", "locate_amenity", [("amenity", "gas")]),
            Self.say("number 9", nil, [("sys-number", "9")]),
            Self.say("what's the weather?", "weather"),
            Self.say("the first", nil, [("sys-number", "1")]),
        ])
        #expect(turns.map(\.texts) == [
            ["Hi. It looks like a nice drive today. What would you like me to do?  "],
            ["These are the gas stations nearby. Which one would you like to drive to?"],       // node_9_1467233775768
            // node_11_1529550099848 (> 5), then a body jump back to node_9_1467233775768
            ["Unfortunately that's not a valid option.", "These are the gas stations nearby. Which one would you like to drive to?"],
            // node_1_1467303308178 in a folder that returns: the gas station question again
            ["Unfortunately I don't know much about the weather. I'm still learning.",
             "These are the gas stations nearby. Which one would you like to drive to?"],
            ["Sure! Navigating to gas station 1 on the list."],                     // node_4_1488752569375
        ])
    }
}
