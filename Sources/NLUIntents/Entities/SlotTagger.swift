import Foundation
import NLUCore
import NLUText

/// The trained slot tagger: a ``LinearChainCRF`` over ``SlotFeatureExtractor``'s features of the word
/// tokens, BIO tags (``SlotTagScheme``), Viterbi decoding, and for each mention the marginal
/// probability of its tags as confidence.
///
///     let tagger = try SlotTagger.train(on: dataset)       // nil when no utterance is annotated
///     tagger?.entities(in: "turn on the fog lights")      // [device "fog lights" 12..<22, 0.97]
public struct SlotTagger: Sendable {
    /// The CRF.
    public let crf: LinearChainCRF
    /// The features it was trained on.
    public let features: SlotFeatureExtractor
    /// The phrases of the "inside a dictionary match" features, per entity: the dataset's values and
    /// synonyms and the annotated mentions of the training data.
    let dictionaryPhrases: [String: [String]]
    /// Regex entities used as features.
    let patternDefinitions: [EntityDefinition]
    /// The options it was trained with.
    public let options: SlotTaggerOptions

    init(crf: LinearChainCRF, dictionaryPhrases: [String: [String]], patternDefinitions: [EntityDefinition],
         options: SlotTaggerOptions) throws {
        self.crf = crf
        self.dictionaryPhrases = dictionaryPhrases
        self.patternDefinitions = patternDefinitions
        self.options = options
        features = SlotFeatureExtractor(gazetteer: Gazetteer(dictionaryPhrases.mapValues { $0.map { ($0, $0) } }),
                                        patterns: try RegexEntityMatcher(patternDefinitions))
    }

    /// Trains a tagger on the annotated utterances of `dataset` (every intent's, and the
    /// counterexamples as utterances without entities). `progress(iteration, loss)` reports L-BFGS.
    /// - Returns: `nil` when no utterance has an annotation that covers a whole token.
    /// - Throws: ``EntityTaggerError`` for bad options or an invalid regex among the definitions.
    public static func train(on dataset: IntentDataset, options: SlotTaggerOptions = SlotTaggerOptions(),
                             progress: (Int, Double) -> Void = { _, _ in }) throws -> SlotTagger? {
        try options.validate()
        let utterances = dataset.intents.flatMap(\.utterances) + dataset.counterexamples
        var definitionPhrases: [String: Set<String>] = [:]
        for definition in dataset.entities {
            for value in definition.values where value.patterns.isEmpty || !value.synonyms.isEmpty {
                definitionPhrases[definition.name, default: []].formUnion([value.value] + value.synonyms)
            }
        }
        // Annotated mentions, per fold of the utterances (utterance i is in fold i mod foldCount).
        let foldCount = options.gazetteerFolds
        var mentionsByFold = [[String: Set<String>]](repeating: [:], count: max(1, foldCount))
        for (index, utterance) in utterances.enumerated() {
            for annotation in utterance.entities {
                if let range = utterance.text.scalarIndexRange(annotation.start..<annotation.end) {
                    mentionsByFold[index % mentionsByFold.count][annotation.entity, default: []].insert(String(utterance.text[range]))
                }
            }
        }
        func phrases(excludingFold excluded: Int?) -> [String: [String]] {
            var result = definitionPhrases
            for (fold, mentions) in mentionsByFold.enumerated() where fold != excluded && foldCount > 0 {
                for (entity, texts) in mentions { result[entity, default: []].formUnion(texts) }
            }
            return result.mapValues { $0.sorted() }
        }
        func extractor(_ phrases: [String: [String]]) throws -> SlotFeatureExtractor {
            SlotFeatureExtractor(gazetteer: Gazetteer(phrases.mapValues { $0.map { ($0, $0) } }),
                                 patterns: try RegexEntityMatcher(patternDefinitions))
        }
        let patternDefinitions = dataset.entities.filter { $0.values.contains { !$0.patterns.isEmpty } }
            .map { EntityDefinition(name: $0.name, values: $0.values.filter { !$0.patterns.isEmpty }.map { EntityValue($0.value, patterns: $0.patterns) }) }
        // Prediction sees every training mention in the dictionaries. Training features of an utterance
        // see only the mentions of the other folds: with its own mentions in, the dictionary feature
        // fires on every training mention and the CRF learns to trust it over the context, which fails
        // on the new names of real use (Snips: slot F1 0.80 → see docs/entities.md).
        let dictionaryPhrases = phrases(excludingFold: nil)
        let trainingExtractors = foldCount > 1 ? try (0..<foldCount).map { try extractor(phrases(excludingFold: $0)) }
                                               : [try extractor(dictionaryPhrases)]
        var sequences: [(attributes: [[String]], labels: [String])] = []
        var tagged = false
        for (index, utterance) in utterances.enumerated() {
            let tokens = WordTokenizer().tokens(in: utterance.text)
            guard !tokens.isEmpty else { continue }
            let tags = SlotTagScheme.tags(for: utterance, tokens: tokens)
            tagged = tagged || tags.contains { $0 != SlotTagScheme.outside }
            sequences.append((trainingExtractors[index % trainingExtractors.count].attributes(tokens, in: utterance.text), tags))
        }
        guard tagged else { return nil }
        let trainer = try CRFTrainer(sequences: sequences)
        var crfOptions = CRFTrainer.Options()
        crfOptions.c1 = options.c1
        crfOptions.c2 = options.c2
        crfOptions.maxIterations = options.maxIterations
        crfOptions.delta = options.delta
        var crf = trainer.train(options: crfOptions, progress: progress).crf
        // The package stores F32 weights: round now so that a loaded model answers exactly as this one.
        crf.weights = crf.weights.map { Double(Float($0)) }
        // OWL-QN leaves most state weights at exactly 0 (in F32 too): dropping them changes no score
        // and shrinks the model file several times over.
        crf = crf.pruned()
        return try SlotTagger(crf: crf, dictionaryPhrases: dictionaryPhrases, patternDefinitions: patternDefinitions, options: options)
    }

    /// The mentions the tagger finds in `text` (value = the text as written), in text order.
    public func entities(in text: String) -> [ExtractedEntity] {
        let tokens = WordTokenizer().tokens(in: text)
        guard !tokens.isEmpty else { return [] }
        let sequence = crf.attributeIDs(features.attributes(tokens, in: text))
        let path = crf.viterbi(sequence).labels
        let tags = path.map { crf.labels[$0] }
        let lattice = crf.lattice(sequence)
        return SlotTagScheme.spans(tags).map { span in
            let slot = SlotTagScheme.Slot(key: span.slot)
            let range = tokens[span.tokens.lowerBound].range.lowerBound..<tokens[span.tokens.upperBound - 1].range.upperBound
            let offsets = text.scalarOffsets(of: range)
            let mention = String(text[range])
            let confidence = lattice.probability(of: Array(path[span.tokens]), from: span.tokens.lowerBound)
            return ExtractedEntity(entity: slot.entity, start: offsets.lowerBound, end: offsets.upperBound, text: mention,
                                   value: mention, confidence: confidence, extractor: .crf, role: slot.role, group: slot.group)
        }
    }

    // MARK: Storage

    /// What the model package's manifest keeps of the tagger (the weights go to `weights.safetensors`).
    struct Configuration: Codable, Sendable {
        var labels: [String]
        var attributes: [String]
        var dictionaryPhrases: [String: [String]]
        var patterns: [EntityDefinition]
        var options: SlotTaggerOptions
    }

    static let offsetsTensor = "tagger.attribute_offsets"
    static let featureLabelsTensor = "tagger.feature_labels"
    static let weightsTensor = "tagger.weights"

    var configuration: Configuration {
        Configuration(labels: crf.labels, attributes: crf.attributes, dictionaryPhrases: dictionaryPhrases,
                      patterns: patternDefinitions, options: options)
    }

    /// The tagger's tensors. Offsets and label indices are stored as F32, exact below 2²⁴ (checked on load).
    var namedWeights: [String: Tensor<Float>] {
        [Self.offsetsTensor: Tensor(shape: [crf.attributeOffsets.count], scalars: crf.attributeOffsets.map(Float.init)),
         Self.featureLabelsTensor: Tensor(shape: [crf.featureLabels.count], scalars: crf.featureLabels.map(Float.init)),
         Self.weightsTensor: Tensor(shape: [crf.weights.count], scalars: crf.weights.map(Float.init))]
    }

    /// Rebuilds a tagger from its configuration and tensors (`file` names the package in errors).
    static func load(_ configuration: Configuration, tensor: (String) throws -> Tensor<Float>, file: String) throws -> SlotTagger {
        func integers(_ name: String) throws -> [Int32] {
            let values = try tensor(name).scalars
            guard values.count < (1 << 24), values.allSatisfy({ $0 >= 0 && $0 < Float(1 << 24) && $0.rounded() == $0 }) else {
                throw EntityTaggerError.invalidModel("\(file): tensor '\(name)' must hold whole numbers from 0 to 2^24")
            }
            return values.map { Int32($0) }
        }
        do {
            let crf = try LinearChainCRF(labels: configuration.labels, attributes: configuration.attributes,
                                         attributeOffsets: integers(offsetsTensor), featureLabels: integers(featureLabelsTensor),
                                         weights: tensor(weightsTensor).scalars.map(Double.init))
            return try SlotTagger(crf: crf, dictionaryPhrases: configuration.dictionaryPhrases,
                                  patternDefinitions: configuration.patterns, options: configuration.options)
        } catch let EntityTaggerError.invalidModel(reason) {
            throw EntityTaggerError.invalidModel(reason.hasPrefix(file) ? reason : "\(file): \(reason)")
        }
    }
}
