import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// Rasa's RulePolicy fallback on formbot, against what Rasa 3.6.21 did with the same messages:
/// `Tests/Fixtures/dialogue/rasa-fallback.json` (`scripts/fixtures/rasa_fallback.py`) holds, per case, whether
/// fallback prediction is on, each message, the bot's texts, the formbot slots and the running form after it.
/// Formbot's "Thank you" rule is trained there with `wait_for_user_input: false`, so nothing says what follows
/// `utter_noworries`: the fallback answers after that bot action too, not only after a user message.
@Suite struct RasaFallbackTests {
    static let fixtures = RasaRecordedTurn.fixtures

    struct Case: Decodable {
        var name: String
        var enableFallbackPrediction: Bool
        var turns: [RasaRecordedTurn]
        enum CodingKeys: String, CodingKey { case name, turns, enableFallbackPrediction = "enable_fallback_prediction" }
    }

    /// Formbot as the fixture script trained it (its "Thank you" rule not waiting), with `config.yml`'s RulePolicy.
    static func formbot(enableFallbackPrediction: Bool) throws -> Dialogue {
        let folder = TestScratch.file("formbot-fallback")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("rasa-formbot"), to: folder)
        let rulesFile = folder.appendingPathComponent("data/rules.yml")
        let thanks = "  - rule: Thank you\n    steps:\n      - intent: thankyou\n      - action: utter_noworries\n"
        let rules = try String(contentsOf: rulesFile, encoding: .utf8)
        #expect(rules.contains(thanks))
        try rules.replacingOccurrences(of: thanks, with: thanks + "    wait_for_user_input: false\n")
            .write(to: rulesFile, atomically: true, encoding: .utf8)
        try "policies:\n  - name: MemoizationPolicy\n  - name: RulePolicy\n    enable_fallback_prediction: \(enableFallbackPrediction)\n"
            .write(to: folder.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
        return try Dialogue(try RasaDialogueImporter.read(project: folder).model)
    }

    @Test func everyCaseRunsAsRasaRanIt() throws {
        struct File: Decodable { var rasa: String; var cases: [Case] }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("rasa-fallback.json")))
        #expect(file.rasa == "3.6.21")
        #expect(file.cases.count == 4)
        for expected in file.cases {
            var conversation = Conversation(dialogue: try Self.formbot(enableFallbackPrediction: expected.enableFallbackPrediction))
            _ = try conversation.send(ParsedMessage(text: ""))
            for turn in expected.turns {
                turn.expectSame(try conversation.send(try turn.message()), conversation.state, in: expected.name)
            }
        }
    }

    /// The fallback takes the user's message back with what it did (Rasa's `UserUtteranceReverted`): a slot its
    /// mapping filled is as before it.
    @Test func theFallbackTakesBackTheSlotsTheMessageSet() throws {
        let rules = DialogueRules(
            responses: ["utter_default": [DialogueResponse.text(values: ["Sorry?"], selection: .sequential)]],
            slots: [RuleSlot(name: "mood", type: .text, mappings: [SlotMapping(type: .fromIntent, intent: ["happy"], value: .string("happy"))])],
            fallbackAction: RuleRunner.defaultFallbackAction)
        var conversation = Conversation(dialogue: try Dialogue(DialogueModel(name: "moods", nodes: [], rules: rules)))
        _ = try conversation.send(ParsedMessage(text: ""))
        let answer = try conversation.send(ParsedMessage(text: "yay", intents: [.init(intent: "happy", confidence: 1)]))
        #expect(answer.texts == ["Sorry?"])
        #expect((conversation.state.context["mood"] ?? .null) == .null)
        #expect(conversation.state.tracker?.events.contains { if case .user = $0 { return true } else { return false } } == false)
    }

    @Test func configOutOfRangeIsRefusedNamingTheField() throws {
        let folder = try TestScratch.folder("fallback-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "version: \"3.1\"\nintents: [greet]\nresponses:\n  utter_default:\n  - text: what?\n  utter_other:\n  - text: other\n"
            .write(to: folder.appendingPathComponent("domain.yml"), atomically: true, encoding: .utf8)
        func read(_ policy: String) throws -> DialogueRules? {
            try "policies:\n  - name: RulePolicy\n\(policy)".write(to: folder.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
            return try RasaDialogueImporter.read(project: folder).model.rules
        }
        #expect(try read("").map(\.fallbackAction) == "action_default_fallback")
        #expect(try read("    enable_fallback_prediction: false\n").map(\.fallbackAction) == .some(nil))
        #expect(try read("    core_fallback_action_name: utter_other\n").map(\.fallbackAction) == "utter_other")
        let threshold = #expect(throws: RasaDialogueError.self) { try read("    core_fallback_threshold: 1.5\n") }
        #expect(threshold?.description.contains("config.yml line 3: RulePolicy.core_fallback_threshold: expected a number from 0 to 1; got '1.5'") == true,
                "\(String(describing: threshold))")
        let flag = #expect(throws: RasaDialogueError.self) { try read("    enable_fallback_prediction: sometimes\n") }
        #expect(flag?.description.contains("RulePolicy.enable_fallback_prediction: expected true or false; got 'sometimes'") == true)
    }
}
