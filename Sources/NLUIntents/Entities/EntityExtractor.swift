import NLUBuiltins
import NLUText

/// All entity extractors of an intents model and the one place their results are merged:
///
/// 1. the slot tagger's mentions (the CRF ``SlotTagger``'s, or a joint model's ``TransformerSlotTagger``'s) are
///    kept, except those of a closed entity that resolve to no listed value;
/// 2. regex matches, then dictionary matches (longest first, then earlier first) are added only where
///    they overlap nothing already kept — so they win over the tagger only where it found nothing; phrase lists
///    (feature-only definitions) are tagger features and never entities;
/// 3. every mention of a defined entity gets its canonical value (``EntityDictionaries/resolve(entity:text:)``);
/// 4. built-in entities (``BuiltinEntityMatcher``: the dataset's system entities) are resolved: a tagged
///    mention of a built-in entity gets the value the built-in recognizer reads in its span (and keeps it as
///    written when the recognizer reads none); built-in matches are added where they overlap nothing kept,
///    under the entity name that asked for their kind, with extractor `builtin` and confidence 1.
///
///     let extractor = EntityExtractor(tagger: tagger, definitions: dataset.entities)
///     extractor.entities(in: "a short black please")   // coffee = "espresso" (dictionary)
public struct EntityExtractor: Sendable {
    /// The trained CRF tagger, when the training data had annotations (and the tagger is not a transformer).
    public let tagger: SlotTagger?
    /// The joint intent + slot model's tagger (`--tagger transformer`), in place of ``tagger``.
    public let transformerTagger: TransformerSlotTagger?
    /// The dataset's entity definitions.
    public let definitions: [EntityDefinition]
    let dictionaries: EntityDictionaries
    let patterns: RegexEntityMatcher
    /// Definitions that only describe features (``EntityDefinition/featureOnly``): never returned as entities.
    let featureOnly: Set<String>
    /// The built-in entities the definitions ask for, read in ``language``.
    public private(set) var builtins: BuiltinEntityMatcher
    /// The dataset's language code, which the built-ins are read in (``BuiltinEntityLanguage``); `nil`: English.
    public private(set) var language: String?
    /// Whether the tagger's regex features are ``patterns`` (as a trained model's are): their matches
    /// on a text are then searched once, for both.
    let taggerSharesPatterns: Bool

    /// Makes an extractor (with at most one of `tagger` and `transformerTagger`) whose built-ins read `language`
    /// (the dataset's code, ``BuiltinEntityLanguage``; `nil`: English).
    /// - Throws: ``EntityTaggerError/invalidPattern(entity:pattern:reason:)``; ``EntityTaggerError/invalidModel(_:)`` for two taggers.
    public init(tagger: SlotTagger?, transformerTagger: TransformerSlotTagger? = nil, definitions: [EntityDefinition],
                language: String? = nil) throws {
        if tagger != nil && transformerTagger != nil {
            throw EntityTaggerError.invalidModel("a CRF slot tagger and a transformer tagger at once; an extractor has one tagger")
        }
        self.tagger = tagger
        self.transformerTagger = transformerTagger
        self.definitions = definitions
        dictionaries = EntityDictionaries(definitions)
        let patterns = try RegexEntityMatcher(definitions)
        self.patterns = patterns
        featureOnly = Set(definitions.filter(\.featureOnly).map(\.name))
        self.language = language
        builtins = BuiltinEntityMatcher(definitions, language: BuiltinEntityLanguage(code: language).language)
        taggerSharesPatterns = tagger?.features.patterns.map { patterns.hasSamePatterns(as: $0) } ?? false
    }

    /// This extractor with its built-ins read in `language` instead (a request that says its text's language);
    /// the tagger keeps the features it was trained with.
    ///
    ///     extractor.readingBuiltins(in: .french).entities(in: "deux pizzas")   // number "deux" = 2
    public func readingBuiltins(in language: BuiltinLanguage) -> EntityExtractor {
        var copy = self
        copy.language = language.rawValue
        copy.builtins = BuiltinEntityMatcher(definitions, language: language)
        return copy
    }

    /// Whether no extractor can find anything.
    public var isEmpty: Bool { tagger == nil && transformerTagger == nil && dictionaries.gazetteer.isEmpty && patterns.isEmpty && builtins.isEmpty }

    /// The entities in `text`, in text order, merged as described above. Relative date-times ("tomorrow")
    /// resolve against `reference` (default: the local time now).
    public func entities(in text: String, reference: ReferenceTime? = nil) -> [ExtractedEntity] {
        var timeouts: [RegexEntityMatcher.Timeout] = []
        return entities(in: text, reference: reference, patternTimeouts: &timeouts)
    }

    /// ``entities(in:reference:)``, appending to `patternTimeouts` each regex pattern that ran past its
    /// share of the text's time budget (as a tagger feature or as an extractor; once per pattern): its
    /// entity may be missing from the result.
    public func entities(in text: String, reference: ReferenceTime? = nil,
                         patternTimeouts: inout [RegexEntityMatcher.Timeout]) -> [ExtractedEntity] {
        let now = builtins.isEmpty ? nil : reference ?? .now()
        var kept: [ExtractedEntity] = []
        var timeouts: [RegexEntityMatcher.Timeout] = []
        defer {
            var seen = Set(patternTimeouts)
            patternTimeouts += timeouts.filter { seen.insert($0).inserted }
        }
        // The regexes search the text once: the tagger's features reuse the extractor's matches when the
        // patterns are the same (a runaway pattern then costs one time budget, not two).
        let tokens = WordTokenizer().tokens(in: text)
        let regexMatches = patterns.matches(in: text, tokens: tokens, timeouts: &timeouts)
        let tagged = tagger?.entities(in: text, patternTimeouts: &timeouts, regexMatches: taggerSharesPatterns ? regexMatches : nil)
            ?? transformerTagger?.entities(in: text) ?? []
        for entity in tagged {
            guard let value = dictionaries.resolve(entity: entity.entity, text: entity.text) else { continue }
            var resolved = entity
            resolved.value = value
            if let now, let builtin = builtins.resolve(entity: entity.entity, mention: entity.text, reference: now) {
                resolved.value = BuiltinEntityMatcher.value(of: builtin.resolution)
                resolved.builtin = builtin.type
                resolved.resolution = builtin.resolution
            }
            kept.append(resolved)
        }
        let tokenOffsets = text.scalarOffsets(of: tokens.map(\.range))
        func candidate(_ entity: String, _ span: Range<Int>, value: String?, _ extractor: ExtractedEntity.Extractor) -> ExtractedEntity {
            let range = tokens[span.lowerBound].range.lowerBound..<tokens[span.upperBound - 1].range.upperBound
            let mention = String(text[range])
            return ExtractedEntity(entity: entity, start: tokenOffsets[span.lowerBound].lowerBound,
                                   end: tokenOffsets[span.upperBound - 1].upperBound, text: mention,
                                   value: value ?? dictionaries.resolve(entity: entity, text: mention) ?? mention,
                                   confidence: 1, extractor: extractor)
        }
        func byLength(_ a: ExtractedEntity, _ b: ExtractedEntity) -> Bool {
            a.end - a.start != b.end - b.start ? a.end - a.start > b.end - b.start : a.start < b.start
        }
        let regex = regexMatches.map { candidate($0.entity, $0.tokens, value: nil, .regex) }.sorted(by: byLength)
        let normalized = tokens.map { Gazetteer.normalize($0.text) }
        // Phrase lists (LUIS `@ phraselist`, CLU/Dialogflow feature lists) are features of the tagger, not entities.
        let dictionary = dictionaries.gazetteer.matches(normalized).filter { !featureOnly.contains($0.entity) }
            .map { candidate($0.entity, $0.tokens, value: $0.value, .dictionary) }.sorted(by: byLength)
        var builtin: [ExtractedEntity] = []
        if let now {
            builtin = builtins.matches(in: text, reference: now).map { name, match in
                ExtractedEntity(entity: name, start: match.scalarRange.lowerBound, end: match.scalarRange.upperBound,
                                text: match.text, value: BuiltinEntityMatcher.value(of: match.resolution), confidence: 1,
                                extractor: .builtin, builtin: match.type, resolution: match.resolution)
            }
        }
        var occupied = OccupiedSpans()
        for entity in kept { occupied.insert(entity.start..<entity.end) }
        for entity in regex + dictionary + builtin where !occupied.overlaps(entity.start..<entity.end) {
            kept.append(entity)
            occupied.insert(entity.start..<entity.end)
        }
        return kept.sorted { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
    }
}
