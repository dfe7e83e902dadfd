import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// Rasa's payload messages (`/intent@confidence{"entity": value}`), read as Rasa 3.6.21's own reader reads them:
/// `Tests/Fixtures/dialogue/rasa-payloads.json` holds what `YAMLStoryReader.unpack_regex_message` gave for each
/// case (`scripts/fixtures/rasa_payloads.py`, with formbot's intents and entities as the domain), and each
/// case must give the same intent, confidence (exactly: both read the same decimal), entities in the same order
/// with the same values and offsets, and a warning exactly where Rasa warned.
@Suite struct PayloadMessageTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue/rasa-payloads.json")
    static let intents: Set<String> = ["greet", "inform", "affirm", "deny", "request_restaurant"]
    static let entities: Set<String> = ["cuisine", "number", "feedback", "seating"]

    struct Expected: Decodable {
        struct Mention: Decodable {
            var entity: String
            var value: DialogueValue
            var start: Int
            var end: Int
        }
        var text: String
        var payload: Bool
        var intent: String?
        var confidence: Double?
        var entities: [Mention]
        var warned: Bool
    }

    @Test func everyCaseReadsAsRasaReadsIt() throws {
        struct File: Decodable { var rasa: String; var cases: [Expected] }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.fixture))
        #expect(file.rasa == "3.6.21")
        #expect(file.cases.count == 30)
        for expected in file.cases {
            let parsed = PayloadMessage.parse(expected.text, intents: Self.intents, entities: Self.entities)
            guard let parsed else {
                // Not starting with "/": an ordinary message, which Rasa leaves alone too.
                #expect(!expected.payload && !expected.warned, "\(expected.text)")
                #expect(!expected.text.trimmingCharacters(in: .whitespaces).hasPrefix("/"), "\(expected.text)")
                continue
            }
            // Rasa's lone "/" fails its pattern with a log line (structlog) rather than a Python warning.
            let rasaWarned = expected.warned || expected.text.trimmingCharacters(in: .whitespaces) == "/"
            #expect(!parsed.warnings.isEmpty == rasaWarned, "\(expected.text): \(parsed.warnings)")
            guard expected.payload else {
                #expect(parsed.message == nil, "\(expected.text)")
                continue
            }
            let message = try #require(parsed.message, "\(expected.text)")
            #expect(message.intents.map(\.intent) == [try #require(expected.intent)], "\(expected.text)")
            #expect(message.intents.first?.confidence == expected.confidence, "\(expected.text)")
            // Rasa keeps a null value as an entity that fills nothing; NLUKit leaves it out.
            let mentions = expected.entities.filter { $0.value != .null }
            #expect(message.entities.map(\.entity) == mentions.map(\.entity), "\(expected.text)")
            for (got, want) in zip(message.entities, mentions) {
                switch want.value {
                case .number(let number):
                    #expect(got.number == number, "\(expected.text)")
                    #expect(Double(got.value) == number, "\(expected.text)")
                case .string(let text):
                    #expect(got.value == text && got.number == nil, "\(expected.text)")
                case .bool(let flag):
                    #expect(got.value == (flag ? "true" : "false"), "\(expected.text)")
                default:
                    Issue.record("unexpected value \(want.value) in the fixture")
                }
                #expect(got.start == want.start && got.end == want.end, "\(expected.text)")
            }
        }
    }

    @Test func withoutKnownIntentsAnyNameIsAPayload() throws {
        let parsed = try #require(PayloadMessage.parse("/order_pizza{\"size\": \"large\"}"))
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.message?.intents == [.init(intent: "order_pizza", confidence: 1)])
        #expect(parsed.message?.entities.map(\.value) == ["large"])
        #expect(PayloadMessage.parse("hello /greet") == nil)
    }

    /// Hostile payloads: deep nesting, huge numbers, a lone brace — a clear warning, never a crash.
    @Test func malformedPayloadsWarnAndKeepTheIntent() throws {
        let deep = "/inform{\"cuisine\": " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        let nested = try #require(PayloadMessage.parse(deep))
        #expect(nested.message?.intents.first?.intent == "inform")
        #expect(nested.message?.entities == [])
        #expect(nested.warnings.contains { $0.contains("nested deeper than 64 levels") })
        let huge = try #require(PayloadMessage.parse("/inform@" + String(repeating: "9", count: 400)))
        #expect(huge.message?.intents.first?.confidence == 1)
        #expect(huge.warnings.contains { $0.contains("over 1") })
        let brace = try #require(PayloadMessage.parse("/inform{"))
        #expect(brace.message?.entities == [])
        #expect(brace.warnings.contains { $0.contains("is ignored") })
        let broken = try #require(PayloadMessage.parse("/inform{\"cuisine\": thai}"))
        #expect(broken.message?.intents.first?.intent == "inform")
        #expect(broken.warnings.count == 1 && broken.warnings[0].contains("not a JSON object"))
    }

    /// Rasa's buttons round-trip: the payload a formbot button would send fills the form as the typed answer
    /// does, through slot mappings (`from_entity`, `from_intent`, `from_text`).
    @Test func formbotFormFilledByButtonPayloads() throws {
        let dialogue = try Dialogue(try RasaDialogueImporter.read(project: RasaDialogueTests.formbot).model)
        var conversation = Conversation(dialogue: dialogue)
        func send(_ text: String) throws -> DialogueTurn {
            try conversation.send(try #require(PayloadMessage.parse(text)?.message))
        }
        #expect(try send("/request_restaurant").texts == ["What cuisine?"])
        #expect(try send("/inform{\"cuisine\": \"thai\"}").texts == ["How many people?"])
        #expect(try send("/inform{\"number\": 4}").texts == ["Do you want to sit outside?"])
        #expect(try send("/affirm").texts == ["Please provide additional preferences"])
        #expect(try send("/deny").texts == ["Please give your feedback on your experience so far"])
        let last = try send("/inform{\"feedback\": \"great\"}")
        #expect(last.visited == ["restaurant_form", "utter_submit", "utter_slots_values"])
        #expect(conversation.state.context["cuisine"] == .string("thai"))
        #expect(conversation.state.context["num_people"] == .number(4))
        // A text slot keeps the boolean its from_intent mapping gives, as Rasa's does.
        #expect(conversation.state.context["outdoor_seating"] == .bool(true))
        #expect(conversation.state.context["preferences"] == .string("no additional preferences"))
        #expect(conversation.state.context["feedback"] == .string("great"))
    }

    /// Test stories and transcripts replay payload messages: a story's `/inform{…}` text gives its entities
    /// (and its intent when the step names none); a transcript line whose message is a payload text alone.
    @Test func scriptsReplayPayloads() throws {
        let dialogue = try Dialogue(try RasaDialogueImporter.read(project: RasaDialogueTests.formbot).model)
        let folder = try TestScratch.folder("payload-scripts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stories = folder.appendingPathComponent("stories.yml")
        try """
        stories:
        - story: buttons
          steps:
          - user: /request_restaurant
          - action: restaurant_form
          - active_loop: restaurant_form
          - user: |
              /inform{"cuisine": "thai"}
            intent: inform
          - action: restaurant_form
        """.write(to: stories, atomically: true, encoding: .utf8)
        let read = try ScriptedConversation.read(stories)
        guard case .user(let message, _, _, _) = try #require(read.first?.steps.dropFirst(3).first?.step) else {
            Issue.record("no user step"); return
        }
        #expect(message.entities.map(\.value) == ["thai"])
        #expect(try ConversationTester(dialogue: dialogue).run(read).isEmpty)

        let transcript = folder.appendingPathComponent("buttons.jsonl")
        try """
        {"user": {"text": "/request_restaurant"}, "bot": ["What cuisine?"]}
        {"user": {"text": "/inform{\\"cuisine\\": \\"thai\\"}"}, "bot": ["How many people?"], "slots": {"cuisine": "thai"}}
        {"user": {"text": "/restart"}, "bot": ["restarted"], "actions": ["action_restart"], "slots": {"cuisine": null}}
        """.write(to: transcript, atomically: true, encoding: .utf8)
        #expect(try ConversationTester(dialogue: dialogue).run(try ScriptedConversation.read(transcript)) == [])
    }
}
