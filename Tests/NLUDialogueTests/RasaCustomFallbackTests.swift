import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// A custom `core_fallback_action_name` and unset slots in responses, against what Rasa 3.6.21 did with the same
/// messages: `Tests/Fixtures/dialogue/rasa-custom-fallback.json` (`scripts/fixtures/rasa_custom_fallback.py`) holds,
/// per case, each message, the bot's texts, the formbot slots and the running form after it. Formbot runs there with
/// `utter_chitchat` as RulePolicy's fallback (which, unlike `action_default_fallback`, takes nothing back, so it is
/// predicted again up to Rasa's 10 actions per message) and its "Bot challenge" rule answering `utter_slots_values`
/// (every slot, `None` while unset).
@Suite struct RasaCustomFallbackTests {
    static let fixtures = RasaRecordedTurn.fixtures

    struct Case: Decodable {
        var name: String
        var turns: [RasaRecordedTurn]
    }

    struct File: Decodable {
        var rasa: String
        var fallback: String
        var cases: [Case]
        enum CodingKeys: String, CodingKey { case rasa, cases, fallback = "core_fallback_action_name" }
    }

    /// Formbot as the fixture script trained it, with `config.yml` naming the fallback action.
    static func formbot(fallback: String) throws -> Dialogue {
        let folder = TestScratch.file("formbot-custom-fallback")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("rasa-formbot"), to: folder)
        let rulesFile = folder.appendingPathComponent("data/rules.yml")
        let challenge = "      - intent: bot_challenge\n      - action: utter_iamabot\n"
        let rules = try String(contentsOf: rulesFile, encoding: .utf8)
        #expect(rules.contains(challenge))
        try rules.replacingOccurrences(of: challenge, with: challenge.replacingOccurrences(of: "utter_iamabot", with: "utter_slots_values"))
            .write(to: rulesFile, atomically: true, encoding: .utf8)
        try "policies:\n  - name: MemoizationPolicy\n  - name: RulePolicy\n    core_fallback_action_name: \(fallback)\n"
            .write(to: folder.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
        return try Dialogue(try RasaDialogueImporter.read(project: folder).model)
    }

    @Test func everyCaseRunsAsRasaRanIt() throws {
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("rasa-custom-fallback.json")))
        #expect(file.rasa == "3.6.21")
        #expect(file.cases.count == 3)
        let dialogue = try Self.formbot(fallback: file.fallback)
        for expected in file.cases {
            var conversation = Conversation(dialogue: dialogue)
            _ = try conversation.send(ParsedMessage(text: ""))
            for turn in expected.turns {
                turn.expectSame(try conversation.send(try turn.message()), conversation.state, in: expected.name)
            }
        }
    }

    /// Rasa's interpolation gives a response whose placeholder names no slot as written (its `KeyError` path),
    /// all of its placeholders included; the import says so.
    @Test func aPlaceholderNamingNoSlotLeavesTheTextAsWritten() throws {
        let folder = TestScratch.file("rasa-placeholder")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            version: "3.1"
            slots:
              cuisine: {type: text, mappings: [{type: from_entity, entity: cuisine}]}
            responses:
              utter_known: [{text: "A {cuisine} place."}]
              utter_unknown: [{text: "Hi {name}, a {cuisine} place."}]
            """.write(to: folder.appendingPathComponent("domain.yml"), atomically: true, encoding: .utf8)
        try "rules:\n- rule: a\n  steps: [{intent: greet}, {action: utter_known}, {action: utter_unknown}]\n"
            .write(to: folder.appendingPathComponent("data/rules.yml"), atomically: true, encoding: .utf8)
        let (model, warnings) = try RasaDialogueImporter.read(project: folder)
        #expect(warnings.contains { $0.hasSuffix("response 'utter_unknown': {name} names no slot; the text is shown as written, as Rasa does") })
        var conversation = Conversation(dialogue: try Dialogue(model))
        let turn = try conversation.send(ParsedMessage(text: "hi", intents: [.init(intent: "greet", confidence: 1)]))
        #expect(turn.texts == ["A None place.", "Hi {name}, a {cuisine} place."])
        #expect(turn.warnings.isEmpty)
    }
}
