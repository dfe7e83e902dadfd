import NLUDialogue

/// Rasa's REST channel, `POST /webhooks/rest/webhook`, so that a Rasa chat widget or script talks to NLUKit's
/// dialogue by URL alone.
///
/// Request: `{"sender": "user-42", "message": "turn on the lights"}` (`sender` defaults to `default`, as Rasa's).
/// Response: the bot's messages, as Rasa's REST channel collects them: `[{"recipient_id", "text"}, {"recipient_id",
/// "text", "buttons": [{"title", "payload"}]}, {"recipient_id", "image"}, {"recipient_id", "custom"}]` — an
/// options response is a text with buttons, a payload a `custom` message; pauses have no Rasa form and are left out.
enum RasaRESTChannel {
    struct Request: Decodable, Sendable {
        var sender: String?
        var message: String
    }

    struct Button: Encodable, Sendable, Equatable {
        var title: String
        var payload: String
    }

    struct BotMessage: Encodable, Sendable, Equatable {
        var recipientID: String
        var text: String?
        var buttons: [Button]?
        var image: String?
        var custom: DialogueValue?

        enum CodingKeys: String, CodingKey {
            case text, buttons, image, custom
            case recipientID = "recipient_id"
        }
    }

    /// Rasa's sender when the request names none.
    static let defaultSender = "default"

    static func messages(_ responses: [DialogueOutput], recipient: String) -> [BotMessage] {
        responses.compactMap { response in
            switch response {
            case .text(let text):
                return BotMessage(recipientID: recipient, text: text)
            case .options(let title, _, _, let options):
                return BotMessage(recipientID: recipient, text: title, buttons: options.map { Button(title: $0.label, payload: $0.value) })
            case .image(let source, _, _):
                return BotMessage(recipientID: recipient, image: source)
            case .payload(let payload):
                return BotMessage(recipientID: recipient, custom: payload)
            case .pause:
                return nil
            }
        }
    }
}
