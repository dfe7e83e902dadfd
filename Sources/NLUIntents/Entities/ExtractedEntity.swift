import NLUBuiltins

/// An entity found in an utterance: what, where (Unicode-scalar offsets and the `String.Index` range),
/// the text as written, its canonical value, how sure, and which extractor found it.
///
///     let prediction = classifier.predict("turn on the fog lights")
///     prediction.entities[0]   // entity "device", start 12, end 22, text "fog lights", extractor .crf
public struct ExtractedEntity: Sendable, Equatable, Encodable {
    /// Which extractor found an entity.
    public enum Extractor: String, Sendable, Codable {
        /// The trained slot tagger (linear-chain CRF).
        case crf
        /// An entity dictionary (values and synonyms).
        case dictionary
        /// A regex entity.
        case regex
        /// A built-in recognizer (NLUBuiltins: numbers, amounts, dates...).
        case builtin
        /// The fine-tuned joint intent + slot model (``JointIntentSlotTagger``).
        case transformer
    }

    /// The entity's name.
    public var entity: String
    /// Offset of the first Unicode scalar of the mention.
    public var start: Int
    /// Offset just past the mention's last Unicode scalar.
    public var end: Int
    /// The mention as written.
    public var text: String
    /// The canonical value: the dictionary value when the mention is one of its values or synonyms,
    /// the resolved value when the entity is a built-in (``BuiltinEntityMatcher/value(of:)``), the text otherwise.
    public var value: String
    /// For the tagger, the marginal probability of the mention's tags; 1 for dictionary, regex and built-in matches.
    public var confidence: Double
    /// Which extractor found it.
    public var extractor: Extractor
    /// The role the mention plays, when the tagger learned roles.
    public var role: String?
    /// The group the mention belongs to, when the tagger learned groups.
    public var group: String?
    /// The built-in kind that resolved the mention (found by the built-in recognizer, or a tagged
    /// mention of an entity that is a built-in).
    public var builtin: BuiltinEntityType?
    /// The built-in's full resolution (LUIS shape: `value` and `unit`, or date-time `values`).
    public var resolution: BuiltinResolution?

    /// Creates an entity.
    public init(entity: String, start: Int, end: Int, text: String, value: String, confidence: Double,
                extractor: Extractor, role: String? = nil, group: String? = nil,
                builtin: BuiltinEntityType? = nil, resolution: BuiltinResolution? = nil) {
        self.entity = entity
        self.start = start
        self.end = end
        self.text = text
        self.value = value
        self.confidence = confidence
        self.extractor = extractor
        self.role = role
        self.group = group
        self.builtin = builtin
        self.resolution = resolution
    }

    private enum CodingKeys: String, CodingKey {
        case entity, start, end, text, value, confidence, extractor, role, group, builtin, resolution
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entity, forKey: .entity)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(text, forKey: .text)
        try container.encode(value, forKey: .value)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(extractor, forKey: .extractor)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(group, forKey: .group)
        try container.encodeIfPresent(builtin, forKey: .builtin)
        try container.encodeIfPresent(resolution, forKey: .resolution)
    }
}
