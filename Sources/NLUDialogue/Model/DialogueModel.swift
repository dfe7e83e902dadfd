import Foundation
import NLUInputOutput

/// A dialogue as NLUKit stores it (`"format": "nlu-dialogue"`, documented in docs/dialogue.md): settings,
/// the node tree and a fallback. Importers produce it from platform exports; ``Dialogue`` checks and
/// compiles it for running.
///
///     let model = try DialogueModel.decode(from: data, file: "bot.json")
///     let dialogue = try Dialogue(model)
public struct DialogueModel: Sendable, Equatable, Codable {
    /// The `format` value of a dialogue file.
    public static let formatName = "nlu-dialogue"
    /// The version this library writes and reads.
    public static let currentFormatVersion = 1

    /// Runtime settings.
    public struct Settings: Sendable, Equatable, Codable {
        /// `#intent` holds only when the top intent's confidence reaches this (0...1; Watson: 0.2).
        public var intentThreshold: Double
        /// Nodes one turn may run before it is stopped as a loop (1...10000).
        public var maxStepsPerTurn: Int
        public init(intentThreshold: Double = 0.2, maxStepsPerTurn: Int = 100) {
            self.intentThreshold = intentThreshold
            self.maxStepsPerTurn = maxStepsPerTurn
        }
        private enum CodingKeys: String, CodingKey { case intentThreshold, maxStepsPerTurn }
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            intentThreshold = try container.decodeIfPresent(Double.self, forKey: .intentThreshold) ?? 0.2
            maxStepsPerTurn = try container.decodeIfPresent(Int.self, forKey: .maxStepsPerTurn) ?? 100
        }
    }

    public var format: String
    public var formatVersion: Int
    public var name: String?
    public var language: String?
    /// The platform the dialogue was imported from (`watson`), for reports.
    public var source: String?
    public var settings: Settings
    /// The nodes; siblings in this order.
    public var nodes: [DialogueNode]
    /// Said when no root node answers a turn.
    public var fallback: [DialogueResponse]
    /// A dialogue driven by rules and forms (imported from Rasa) instead of nodes; `nil` for a node dialogue.
    public var rules: DialogueRules?

    public init(name: String? = nil, language: String? = nil, source: String? = nil, settings: Settings = Settings(),
                nodes: [DialogueNode], fallback: [DialogueResponse] = [], rules: DialogueRules? = nil) {
        self.format = Self.formatName
        self.formatVersion = Self.currentFormatVersion
        self.name = name
        self.language = language
        self.source = source
        self.settings = settings
        self.nodes = nodes
        self.fallback = fallback
        self.rules = rules
    }

    private enum CodingKeys: String, CodingKey { case format, formatVersion, name, language, source, settings, nodes, fallback, rules }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        guard format == Self.formatName else {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container,
                                                   debugDescription: "'\(format)' is not a dialogue file (expected \"\(Self.formatName)\")")
        }
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        guard formatVersion == Self.currentFormatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .formatVersion, in: container,
                                                   debugDescription: "version \(formatVersion) is not supported (this NLUKit reads version \(Self.currentFormatVersion))")
        }
        name = try container.decodeIfPresent(String.self, forKey: .name)
        language = try container.decodeIfPresent(String.self, forKey: .language)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        settings = try container.decodeIfPresent(Settings.self, forKey: .settings) ?? Settings()
        nodes = try container.decode([DialogueNode].self, forKey: .nodes)
        fallback = try container.decodeIfPresent([DialogueResponse].self, forKey: .fallback) ?? []
        rules = try container.decodeIfPresent(DialogueRules.self, forKey: .rules)
    }

    /// Reads a dialogue file's bytes.
    /// - Throws: `JSONFileError` naming `file` and the field at fault.
    public static func decode(from data: Data, file: String) throws -> DialogueModel {
        try JSONFile.decode(DialogueModel.self, from: data, file: file)
    }

    /// The model as a dialogue file: pretty-printed JSON with sorted keys (stable for diffs), ending in a newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
