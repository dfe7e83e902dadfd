import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu dialogue chat --test` and of Rasa projects in `nlu dialogue chat|import`, on
/// Rasa's formbot (Tests/Fixtures/dialogue/rasa-formbot): the exit codes 0 (all pass), 1 (a turn differs)
/// and 2 (the script cannot be read), and the report's lines.
@Suite struct DialogueTestCommandTests {
    static let formbot = fixturesDirectory.appendingPathComponent("dialogue/rasa-formbot").path

    @Test func testStoriesReportTheDifferingTurnsAndExitOne() throws {
        let run = try runNLU(["dialogue", "chat", Self.formbot, "--test", Self.formbot + "/tests/test_stories.yml"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout == """
            FAILED  Happy path
              line 14: action: expected utter_slots_values, got utter_submit
              line 15: action: expected action_listen, got action_default_fallback
            FAILED  Happy path with message providing requested value
              line 36: action: expected utter_slots_values, got utter_submit
              line 37: action: expected action_listen, got action_default_fallback
            FAILED  unhappy path
              line 59: action: expected utter_slots_values, got utter_submit
              line 60: action: expected action_listen, got action_default_fallback
            3 conversations: 0 passed, 3 failed

            """)
    }

    @Test func aPassingTranscriptExitsZeroAndBadInputTwo() throws {
        let directory = try TestScratch.folder("nlu-dialogue-test")
        let transcript = directory.appendingPathComponent("formbot.jsonl")
        try Data("""
            {"conversation": "greet then form"}
            {"user": {"text": "hi", "intents": [{"intent": "greet", "confidence": 1}]}, "bot": ["Hello! I am restaurant search assistant! How can I help?"]}
            {"user": {"text": "a table", "intents": [{"intent": "request_restaurant", "confidence": 1}]}, "bot": ["What cuisine?"], "actions": ["restaurant_form"]}
            {"user": {"text": "thai", "intents": [{"intent": "inform", "confidence": 1}], "entities": [{"entity": "cuisine", "value": "thai"}]}, "slots": {"cuisine": "thai", "requested_slot": "num_people"}}

            """.utf8).write(to: transcript)
        let run = try runNLU(["dialogue", "chat", Self.formbot, "--test", transcript.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "passed  greet then form\n1 conversation: 1 passed, 0 failed\n")

        let bad = directory.appendingPathComponent("bad.jsonl")
        try Data("{\"conversation\": \"x\"}\n{\"user\": {\"text\": 5}}\n".utf8).write(to: bad)
        let refused = try runNLU(["dialogue", "chat", Self.formbot, "--test", bad.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(bad.path) line 2"))
        let badYAML = directory.appendingPathComponent("bad.yml")
        try Data("stories:\n- story: x\n  steps: [\n".utf8).write(to: badYAML)
        let yaml = try runNLU(["dialogue", "chat", Self.formbot, "--test", badYAML.path])
        #expect(yaml.status == 1)
        #expect(yaml.stderr.contains("\(badYAML.path) line 4"))
    }

    @Test func importWritesARuleDialogueThatChatRuns() throws {
        let directory = try TestScratch.folder("nlu-dialogue-rasa")
        let output = directory.appendingPathComponent("formbot.json").path
        let imported = try runNLU(["dialogue", "import", Self.formbot, "-o", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Imported 8 rules and stories, 1 form, 17 responses"))
        let chat = try runNLU(["dialogue", "chat", output], input: """
            {"text": "hi", "intents": [{"intent": "greet", "confidence": 1}]}
            {"text": "a table", "intents": [{"intent": "request_restaurant", "confidence": 1}]}

            """)
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stdout == "Hello! I am restaurant search assistant! How can I help?\nWhat cuisine?\n")
    }
}
