import Foundation
import Testing
@testable import NLUDialogue

/// One turn of a conversation Rasa 3.6.21 itself ran on formbot, as the fixture scripts record it
/// (`scripts/fixtures/rasa_formbot.py`): the message, the bot's texts, the formbot slots and the running form after it.
struct RasaRecordedTurn: Decodable {
    var text: String
    /// Minutes that passed before the message (the session fixture).
    var minutesLater: Double?
    var bot: [String]
    var slots: [String: DialogueValue]
    var activeLoop: String?

    enum CodingKeys: String, CodingKey { case text, bot, slots, minutesLater = "minutes_later", activeLoop = "active_loop" }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/dialogue")

    /// The message as Rasa read it (every fixture message is a payload).
    func message() throws -> ParsedMessage {
        try #require(PayloadMessage.parse(text)?.message, "\(text)")
    }

    /// Expects NLUKit's answer and conversation after this message to be Rasa's: the same texts, every recorded
    /// slot exactly (unset is null), the same form.
    func expectSame(_ answer: DialogueTurn, _ state: DialogueState, in conversation: String) {
        let place = "\(conversation), \(text)"
        #expect(answer.texts == bot, "\(place)")
        for (slot, value) in slots {
            #expect((state.context[slot] ?? .null) == value, "\(place): slot \(slot)")
        }
        #expect(state.tracker?.activeLoop == activeLoop, "\(place): form")
    }
}
