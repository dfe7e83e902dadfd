/// One response a node gives, as the dialogue file holds it: text (with a selection policy), options
/// (buttons), an image, a pause, or a custom payload for the app. Texts, labels, option values and payload
/// strings may hold `$variable`, `@entity` and `<? expression ?>` references.
///
///     {"type": "text", "values": ["Hello!", "Hi there."], "selection": "random"}
///     {"type": "options", "title": "Which one?", "options": [{"label": "Jazz", "value": "play jazz"}]}
public enum DialogueResponse: Sendable, Equatable, Codable {
    /// How one of several texts is chosen each time the node answers.
    public enum Selection: String, Sendable, Codable {
        /// The first text the first time, the second the next time…, then the last one again and again.
        case sequential
        /// A text drawn at random (reproducibly: the generator's state is in the conversation state).
        case random
        /// Every text, one after the other, in one turn.
        case multiline
    }
    /// One option of an options response.
    public struct Option: Sendable, Equatable, Codable {
        /// What the button shows.
        public var label: String
        /// The text the app sends back as the user's turn when the option is chosen.
        public var value: String
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    case text(values: [String], selection: Selection)
    case options(title: String, description: String?, preference: String?, options: [Option])
    case image(source: String, title: String?, description: String?)
    case pause(milliseconds: Int, typing: Bool)
    case payload(DialogueValue)

    private enum CodingKeys: String, CodingKey {
        case type, values, selection, title, description, preference, options, source, milliseconds, typing, payload
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "text":
            self = .text(values: try container.decode([String].self, forKey: .values),
                         selection: try container.decodeIfPresent(Selection.self, forKey: .selection) ?? .sequential)
        case "options":
            self = .options(title: try container.decodeIfPresent(String.self, forKey: .title) ?? "",
                            description: try container.decodeIfPresent(String.self, forKey: .description),
                            preference: try container.decodeIfPresent(String.self, forKey: .preference),
                            options: try container.decode([Option].self, forKey: .options))
        case "image":
            self = .image(source: try container.decode(String.self, forKey: .source),
                          title: try container.decodeIfPresent(String.self, forKey: .title),
                          description: try container.decodeIfPresent(String.self, forKey: .description))
        case "pause":
            let milliseconds = try container.decode(Int.self, forKey: .milliseconds)
            guard (0...600_000).contains(milliseconds) else {
                throw DecodingError.dataCorruptedError(forKey: .milliseconds, in: container,
                                                       debugDescription: "\(milliseconds) is not a pause from 0 to 600000 milliseconds")
            }
            self = .pause(milliseconds: milliseconds, typing: try container.decodeIfPresent(Bool.self, forKey: .typing) ?? false)
        case "payload":
            self = .payload(try container.decode(DialogueValue.self, forKey: .payload))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container,
                                                   debugDescription: "unknown response type '\(type)' (one of text, options, image, pause, payload)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let values, let selection):
            try container.encode("text", forKey: .type)
            try container.encode(values, forKey: .values)
            try container.encode(selection, forKey: .selection)
        case .options(let title, let description, let preference, let options):
            try container.encode("options", forKey: .type)
            try container.encode(title, forKey: .title)
            try container.encodeIfPresent(description, forKey: .description)
            try container.encodeIfPresent(preference, forKey: .preference)
            try container.encode(options, forKey: .options)
        case .image(let source, let title, let description):
            try container.encode("image", forKey: .type)
            try container.encode(source, forKey: .source)
            try container.encodeIfPresent(title, forKey: .title)
            try container.encodeIfPresent(description, forKey: .description)
        case .pause(let milliseconds, let typing):
            try container.encode("pause", forKey: .type)
            try container.encode(milliseconds, forKey: .milliseconds)
            try container.encode(typing, forKey: .typing)
        case .payload(let payload):
            try container.encode("payload", forKey: .type)
            try container.encode(payload, forKey: .payload)
        }
    }
}
