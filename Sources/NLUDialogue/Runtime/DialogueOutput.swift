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

    private enum CodingKeys: String, CodingKey { case type, text }

    /// A rendered text is `{"type": "text", "text"}`; the other kinds have the shape of their ``DialogueResponse``.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(String.self, forKey: .type) == "text" {
            self = .text(try container.decode(String.self, forKey: .text))
            return
        }
        switch try DialogueResponse(from: decoder) {
        case .options(let title, let description, let preference, let options):
            self = .options(title: title, description: description, preference: preference, options: options)
        case .image(let source, let title, let description): self = .image(source: source, title: title, description: description)
        case .pause(let milliseconds, let typing): self = .pause(milliseconds: milliseconds, typing: typing)
        case .payload(let payload): self = .payload(payload)
        case .text: throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unreachable")
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("text", forKey: .type)
            try container.encode(text, forKey: .text)
        case .options(let title, let description, let preference, let options):
            try DialogueResponse.options(title: title, description: description, preference: preference, options: options).encode(to: encoder)
        case .image(let source, let title, let description):
            try DialogueResponse.image(source: source, title: title, description: description).encode(to: encoder)
        case .pause(let milliseconds, let typing):
            try DialogueResponse.pause(milliseconds: milliseconds, typing: typing).encode(to: encoder)
        case .payload(let payload):
            try DialogueResponse.payload(payload).encode(to: encoder)
        }
    }
}
