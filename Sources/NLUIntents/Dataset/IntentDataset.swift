import Foundation

/// A set of intents with example utterances: what an intent classifier learns from, in NLUKit's
/// own documented JSON form (docs/intents.md, "The dataset JSON form").
///
/// Importers turn platform exports (Watson, Lex, Dialogflow, Alexa, Rasa, LUIS, Snips, CSV) into
/// this form; ``IntentDataset/load(from:warnings:)`` and ``IntentDataset/save(to:)`` read and write it.
///
///     var dataset = IntentDataset(language: "en")
///     dataset.intents.append(Intent(name: "greet", utterances: [Utterance("hello there")]))
///     try dataset.save(to: URL(fileURLWithPath: "intents.json"))
public struct IntentDataset: Codable, Sendable, Equatable {
    /// The value of the `format` field that marks an NLUKit intent dataset.
    public static let formatName = "nlukit-intents"
    /// The newest dataset version this build reads and the one it writes.
    public static let currentVersion = 1

    /// Always ``formatName``.
    public var format: String
    /// The version of the JSON form; newer versions than ``currentVersion`` are refused.
    public var version: Int
    /// BCP-47 language code of the utterances (e.g. `en`), when known.
    public var language: String?
    /// The intents, each with its example utterances.
    public var intents: [Intent]
    /// Utterances that belong to no intent: they train the classifier's "none" class.
    public var counterexamples: [Utterance]
    /// Entity dictionaries (values with synonyms or patterns), kept for later use.
    public var entities: [EntityDefinition]

    /// Creates a dataset.
    public init(language: String? = nil, intents: [Intent] = [], counterexamples: [Utterance] = [],
                entities: [EntityDefinition] = []) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.language = language
        self.intents = intents
        self.counterexamples = counterexamples
        self.entities = entities
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, language, intents, counterexamples, entities
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format) ?? Self.formatName
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        language = try container.decodeIfPresent(String.self, forKey: .language)
        intents = try container.decodeIfPresent([Intent].self, forKey: .intents) ?? []
        counterexamples = try container.decodeIfPresent([Utterance].self, forKey: .counterexamples) ?? []
        entities = try container.decodeIfPresent([EntityDefinition].self, forKey: .entities) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(intents, forKey: .intents)
        if !counterexamples.isEmpty { try container.encode(counterexamples, forKey: .counterexamples) }
        if !entities.isEmpty { try container.encode(entities, forKey: .entities) }
    }

    /// The number of example utterances over all intents (counterexamples not included).
    public var utteranceCount: Int { intents.reduce(0) { $0 + $1.utterances.count } }

    /// The intent named `name`, if any.
    public func intent(named name: String) -> Intent? { intents.first { $0.name == name } }
}

/// One intent: a name and the utterances that express it.
///
///     let intent = Intent(name: "turn_on_lights", utterances: [Utterance("lights on please")])
public struct Intent: Codable, Sendable, Equatable {
    /// The intent's name, unique within a dataset.
    public var name: String
    /// A free-text description, when the export has one.
    public var description: String?
    /// Example utterances.
    public var utterances: [Utterance]

    /// Creates an intent.
    public init(name: String, description: String? = nil, utterances: [Utterance] = []) {
        self.name = name
        self.description = description
        self.utterances = utterances
    }
}

/// One example utterance, with the entities marked in it.
///
///     let utterance = Utterance("play jazz", entities: [EntityAnnotation(start: 5, end: 9, entity: "genre", value: "jazz")])
public struct Utterance: Codable, Sendable, Equatable, ExpressibleByStringLiteral {
    /// The text as the user would type or say it.
    public var text: String
    /// Entity mentions inside ``text``.
    public var entities: [EntityAnnotation]

    /// Creates an utterance.
    public init(_ text: String, entities: [EntityAnnotation] = []) {
        self.text = text
        self.entities = entities
    }

    public init(stringLiteral value: String) { self.init(value) }

    private enum CodingKeys: String, CodingKey { case text, entities }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        entities = try container.decodeIfPresent([EntityAnnotation].self, forKey: .entities) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        if !entities.isEmpty { try container.encode(entities, forKey: .entities) }
    }
}

/// An entity mention inside an utterance: a range of Unicode scalars `start ..< end` (exclusive end,
/// counted as Python counts string offsets), the entity's name and, when known, its normalized value.
///
///     // "fly to Paris": "Paris" is scalars 7..<12
///     let city = EntityAnnotation(start: 7, end: 12, entity: "city", value: "Paris")
public struct EntityAnnotation: Codable, Sendable, Equatable {
    /// Offset of the first Unicode scalar of the mention.
    public var start: Int
    /// Offset just past the last Unicode scalar of the mention.
    public var end: Int
    /// The entity (slot, parameter) name.
    public var entity: String
    /// The normalized value, when the export gives one; the mention's text otherwise.
    public var value: String?
    /// A role the mention plays (LUIS roles, Rasa roles), when given.
    public var role: String?
    /// A group the mention belongs to (Rasa groups: entities that go together), when given.
    public var group: String?

    /// Creates an annotation.
    public init(start: Int, end: Int, entity: String, value: String? = nil, role: String? = nil, group: String? = nil) {
        self.start = start
        self.end = end
        self.entity = entity
        self.value = value
        self.role = role
        self.group = group
    }
}

/// An entity dictionary: the values an entity takes, each with synonyms or patterns.
///
///     let genre = EntityDefinition(name: "genre", values: [EntityValue("jazz", synonyms: ["bebop"])])
public struct EntityDefinition: Codable, Sendable, Equatable {
    /// The entity's name.
    public var name: String
    /// Its values.
    public var values: [EntityValue]
    /// Whether the entity takes values it does not list (Snips' `automatically_extensible`, the opposite
    /// of Lex's `restrictValues`): `false` keeps only mentions that resolve to a listed value.
    public var extensible: Bool
    /// The built-in entity (NLUBuiltins' names: `number`, `datetime`, `email`, ...) this entity is,
    /// when the export maps it to a prebuilt one (CLU prebuilt components, `.lu` `@ prebuilt`,
    /// Dialogflow `@sys.*`, Watson `sys-*`).
    public var builtin: String?
    /// Whether the dictionary is only a hint for the tagger (a LUIS phrase list), never an entity
    /// of its own.
    public var featureOnly: Bool

    /// Creates an entity dictionary.
    public init(name: String, values: [EntityValue] = [], extensible: Bool = true, builtin: String? = nil,
                featureOnly: Bool = false) {
        self.name = name
        self.values = values
        self.extensible = extensible
        self.builtin = builtin
        self.featureOnly = featureOnly
    }

    private enum CodingKeys: String, CodingKey { case name, values, extensible, builtin, featureOnly }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        values = try container.decodeIfPresent([EntityValue].self, forKey: .values) ?? []
        extensible = try container.decodeIfPresent(Bool.self, forKey: .extensible) ?? true
        builtin = try container.decodeIfPresent(String.self, forKey: .builtin)
        featureOnly = try container.decodeIfPresent(Bool.self, forKey: .featureOnly) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(values, forKey: .values)
        if !extensible { try container.encode(extensible, forKey: .extensible) }
        try container.encodeIfPresent(builtin, forKey: .builtin)
        if featureOnly { try container.encode(featureOnly, forKey: .featureOnly) }
    }
}

/// One value of an entity, with its synonyms and (regular-expression) patterns.
///
///     let value = EntityValue("espresso", synonyms: ["short black"])
public struct EntityValue: Codable, Sendable, Equatable {
    /// The canonical value.
    public var value: String
    /// Other ways to say it.
    public var synonyms: [String]
    /// Regular expressions that match it (Watson pattern entities, Rasa regexes).
    public var patterns: [String]

    /// Creates an entity value.
    public init(_ value: String, synonyms: [String] = [], patterns: [String] = []) {
        self.value = value
        self.synonyms = synonyms
        self.patterns = patterns
    }

    private enum CodingKeys: String, CodingKey { case value, synonyms, patterns }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(String.self, forKey: .value)
        synonyms = try container.decodeIfPresent([String].self, forKey: .synonyms) ?? []
        patterns = try container.decodeIfPresent([String].self, forKey: .patterns) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        if !synonyms.isEmpty { try container.encode(synonyms, forKey: .synonyms) }
        if !patterns.isEmpty { try container.encode(patterns, forKey: .patterns) }
    }
}
