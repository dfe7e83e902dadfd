import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// Rasa's conversation sessions on formbot, against what Rasa 3.6.21 did with the same messages:
/// `Tests/Fixtures/dialogue/rasa-sessions.json` (`scripts/fixtures/rasa_sessions.py`) holds, per case, the session
/// configuration, each message (and how many minutes passed before it), the bot's texts, the formbot slots and
/// the running form after it. Every text, slot value and form must be the same here (slot values exactly).
@Suite struct RasaSessionTests {
    static let fixtures = RasaRecordedTurn.fixtures

    struct Case: Decodable {
        var name: String
        var expirationMinutes: Double
        var carryOverSlots: Bool
        var turns: [RasaRecordedTurn]
        enum CodingKeys: String, CodingKey {
            case name, turns, expirationMinutes = "expiration_minutes", carryOverSlots = "carry_over_slots"
        }
    }

    @Test func everyCaseRunsAsRasaRanIt() throws {
        struct File: Decodable { var rasa: String; var cases: [Case] }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("rasa-sessions.json")))
        #expect(file.rasa == "3.6.21")
        #expect(file.cases.count == 7)
        let imported = try RasaDialogueImporter.read(project: Self.fixtures.appendingPathComponent("rasa-formbot")).model
        for expected in file.cases {
            var model = imported
            model.rules?.session = DialogueSession(expirationMinutes: expected.expirationMinutes, carryOverSlots: expected.carryOverSlots)
            var conversation = Conversation(dialogue: try Dialogue(model))
            var now = Date(timeIntervalSince1970: 1_764_750_000)
            _ = try conversation.send(ParsedMessage(text: ""), at: now)
            for turn in expected.turns {
                now += 1 + (turn.minutesLater ?? 0) * 60
                let answer = try conversation.send(try turn.message(), at: now)
                turn.expectSame(answer, conversation.state, in: expected.name)
            }
        }
    }

    /// The session is measured from the user's last message, not from the conversation's start: a message every
    /// 50 minutes keeps a 60-minute session going for hours.
    @Test func eachMessageKeepsTheSessionGoing() throws {
        let model = try RasaDialogueImporter.read(project: Self.fixtures.appendingPathComponent("rasa-formbot")).model
        var conversation = Conversation(dialogue: try Dialogue(model))
        var now = Date(timeIntervalSince1970: 1_764_750_000)
        _ = try conversation.send(ParsedMessage(text: ""), at: now)
        _ = try conversation.send(try #require(PayloadMessage.parse("/request_restaurant")?.message), at: now)
        for cuisine in ["thai", "greek", "indian", "thai"] {
            now += 50 * 60
            _ = try conversation.send(try #require(PayloadMessage.parse("/chitchat")?.message), at: now)
            #expect(conversation.state.tracker?.activeLoop == "restaurant_form", "\(cuisine)")
        }
        // A clock that goes back (another replica's, a corrected one) never starts a session.
        _ = try conversation.send(try #require(PayloadMessage.parse("/chitchat")?.message), at: now - 7200)
        #expect(conversation.state.tracker?.activeLoop == "restaurant_form")
    }

    @Test func sessionConfigOutOfRangeIsRefusedNamingTheField() throws {
        let folder = try TestScratch.folder("session-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let domain = folder.appendingPathComponent("domain.yml")
        func read(_ config: String) throws -> DialogueModel {
            try "version: \"3.1\"\nintents: [greet]\nresponses:\n  utter_greet:\n  - text: hi\n\(config)".write(to: domain, atomically: true, encoding: .utf8)
            return try RasaDialogueImporter.read(project: domain).model
        }
        #expect(try read("").rules?.session == .rasaDefault)
        #expect(try read("session_config:\n").rules?.session == .rasaDefault)
        #expect(try read("session_config:\n  session_expiration_time: 0\n").rules?.session == DialogueSession(expirationMinutes: 0, carryOverSlots: true))
        #expect(try read("session_config:\n  carry_over_slots_to_new_session: false\n").rules?.session
            == DialogueSession(expirationMinutes: 60, carryOverSlots: false))
        let negative = #expect(throws: RasaDialogueError.self) { try read("session_config:\n  session_expiration_time: -5\n") }
        #expect(negative?.description == "\(domain.path) line 7: session_config.session_expiration_time: expected a number of minutes, 0 or more; got '-5'")
        let notBool = #expect(throws: RasaDialogueError.self) { try read("session_config:\n  carry_over_slots_to_new_session: maybe\n") }
        #expect(notBool?.description.contains("session_config.carry_over_slots_to_new_session: expected true or false; got 'maybe'") == true)
    }
}
