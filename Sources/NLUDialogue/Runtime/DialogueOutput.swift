/// One response of a turn, ready to show: texts with their references replaced, options with their
/// labels and values, images, pauses, and payloads for the app.
public enum DialogueOutput: Sendable, Equatable, Codable {
    case text(String)
    case options(title: String, description: String?, preference: String?, options: [DialogueResponse.Option])
    case image(source: String, title: String?, description: String?)
    case pause(milliseconds: Int, typing: Bool)
    case payload(DialogueValue)

    /// The text of a text response, `nil` for the others.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case type, text, title, description, preference, options, source, milliseconds, typing, payload }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "text": self = .text(try container.decode(String.self, forKey: .text))
        case "options":
            self = .options(title: try container.decode(String.self, forKey: .title),
                            description: try container.decodeIfPresent(String.self, forKey: .description),
                            preference: try container.decodeIfPresent(String.self, forKey: .preference),
                            options: try container.decode([DialogueResponse.Option].self, forKey: .options))
        case "image":
            self = .image(source: try container.decode(String.self, forKey: .source),
                          title: try container.decodeIfPresent(String.self, forKey: .title),
                          description: try container.decodeIfPresent(String.self, forKey: .description))
        case "pause":
            self = .pause(milliseconds: try container.decode(Int.self, forKey: .milliseconds),
                          typing: try container.decode(Bool.self, forKey: .typing))
        case "payload": self = .payload(try container.decode(DialogueValue.self, forKey: .payload))
        case let type:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown output type '\(type)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text):
            try container.encode("text", forKey: .type)
            try container.encode(text, forKey: .text)
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
