import Foundation
import NLUBuiltins
import NLUCore
import NLUText

/// The trained slot tagger: a ``LinearChainCRF`` over ``SlotFeatureExtractor``'s features of the word
/// tokens, BIO tags (``SlotTagScheme``), Viterbi decoding, and for each mention the marginal
/// probability of its tags as confidence. With an encoder (``WordVectorFeaturizer``) the features
/// also hold clusters of the encoder's contextual word vectors (``WordVectorClusters``); which kind
/// is trained is ``SlotTaggerOptions/kind``'s choice.
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
    /// Built-in kinds used as features (empty: none).
    let builtinFeatureTypes: [BuiltinEntityType]
    /// The language the built-in features are read in (the dataset's; `nil`: language-independent kinds only).
    let builtinLanguage: BuiltinLanguage?
    /// The options it was trained with.
    public let options: SlotTaggerOptions
    /// The encoder's word-vector clusters and the encoder that computes the vectors, when the tagger
    /// was trained with them (``Kind/encoder``).
    public let wordVectors: (featurizer: any WordVectorFeaturizer, clusters: WordVectorClusters)?

    /// The kind of tagger this is: ``SlotTaggerOptions/Kind/encoder`` when it uses word vectors.
    public var kind: SlotTaggerOptions.Kind { wordVectors == nil ? .crf : .encoder }

    init(crf: LinearChainCRF, dictionaryPhrases: [String: [String]], patternDefinitions: [EntityDefinition],
         builtinFeatureTypes: [BuiltinEntityType], builtinLanguage: BuiltinLanguage?, options: SlotTaggerOptions,
         wordVectors: (featurizer: any WordVectorFeaturizer, clusters: WordVectorClusters)? = nil) throws {
        self.crf = crf
        self.dictionaryPhrases = dictionaryPhrases
        self.patternDefinitions = patternDefinitions
        self.builtinFeatureTypes = builtinFeatureTypes
        self.builtinLanguage = builtinLanguage
        self.options = options
        self.wordVectors = wordVectors
        features = SlotFeatureExtractor(gazetteer: Gazetteer(dictionaryPhrases.mapValues { $0.map { ($0, $0) } }),
                                        patterns: try RegexEntityMatcher(patternDefinitions),
                                        builtins: Self.recognizer(builtinFeatureTypes, language: builtinLanguage), sentenceWords: options.sentenceWords)
    }

    /// The recognizer of the built-in features in `language`, `nil` when there are none.
    static func recognizer(_ types: [BuiltinEntityType], language: BuiltinLanguage?) -> BuiltinRecognizer? {
        types.isEmpty ? nil : BuiltinRecognizer(language: language, types: Set(types))
    }

    /// The built-in kinds that become features for `dataset` under `options`, in a stable order.
    static func builtinFeatureTypes(for dataset: IntentDataset, options: SlotTaggerOptions) -> [BuiltinEntityType] {
        switch options.builtinFeatures {
        case .none: return []
        case .all: return BuiltinEntityType.allCases
        case .dataset:
            var types = Set<BuiltinEntityType>()
            for definition in dataset.entities {
                if let kinds = definition.builtin.flatMap(BuiltinEntityMatcher.types(for:)) { types.formUnion(kinds) }
            }
            return BuiltinEntityType.allCases.filter(types.contains)
        }
    }

    /// Trains a tagger on the annotated utterances of `dataset` (every intent's, and the
    /// counterexamples as utterances without entities). With `wordVectors` and
    /// ``SlotTaggerOptions/kind`` `.automatic` (at least ``SlotTaggerOptions/encoderMinimumUtterances``
    /// annotated utterances) or `.encoder`, the features add the clusters of the encoder's word vectors.
    /// `progress(iteration, loss)` reports L-BFGS; `log` each stage with its time.
    /// - Returns: `nil` when no utterance has an annotation that covers a whole token.
    /// - Throws: ``EntityTaggerError`` for bad options (`.encoder` without `wordVectors`) or an invalid
    ///   regex among the definitions.
    public static func train(on dataset: IntentDataset, options requested: SlotTaggerOptions = SlotTaggerOptions(),
                             wordVectors featurizer: (any WordVectorFeaturizer)? = nil,
                             progress: (Int, Double) -> Void = { _, _ in }, log: (String) -> Void = { _ in }) throws -> SlotTagger? {
        try requested.validate()
        let clock = ContinuousClock()
        var stageStart = clock.now
        func stage(_ name: String) {
            let elapsed = clock.now - stageStart
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            log("slot tagger: \(name) in \(String(format: "%.1f", seconds)) s")
            stageStart = clock.now
        }
        let utterances = dataset.intents.flatMap(\.utterances) + dataset.counterexamples
        let annotatedCount = utterances.filter { !$0.entities.isEmpty }.count
        // The options the tagger keeps say what it was trained with: sentence words only from the minimum on.
        var options = requested
        options.sentenceWords = requested.sentenceWords && annotatedCount >= requested.sentenceWordsMinimumUtterances
        let encoder: (any WordVectorFeaturizer)?
        switch options.kind {
        case .crf: encoder = nil
        case .encoder:
            guard let featurizer else {
                throw EntityTaggerError.invalidOption(option: "tagger kind", reason: "the encoder tagger needs an encoder (sentence embeddings model) for its word vectors")
            }
            encoder = featurizer
        case .automatic: encoder = annotatedCount >= options.encoderMinimumUtterances ? featurizer : nil
        case .transformer:
            throw EntityTaggerError.invalidOption(option: "tagger kind", reason: "the transformer tagger is fine-tuned with the intents (nlu intents train --fine-tune MODEL --tagger transformer, IntentClassifier.fineTuneJoint), not trained beside a bag-of-words model")
        }
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
        let builtinTypes = builtinFeatureTypes(for: dataset, options: options)
        // The dataset's language reads the built-in features, as the model's extractor reads its built-ins.
        let builtinLanguage = BuiltinEntityLanguage(code: dataset.language).language
        let builtins = recognizer(builtinTypes, language: builtinLanguage)
        func extractor(_ phrases: [String: [String]]) throws -> SlotFeatureExtractor {
            SlotFeatureExtractor(gazetteer: Gazetteer(phrases.mapValues { $0.map { ($0, $0) } }),
                                 patterns: try RegexEntityMatcher(patternDefinitions), builtins: builtins,
                                 sentenceWords: options.sentenceWords)
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
        var sequenceTokens: [(text: String, tokens: [WordTokenizer.Token])] = []
        var tagged = false
        for (index, utterance) in utterances.enumerated() {
            let tokens = WordTokenizer().tokens(in: utterance.text)
            guard !tokens.isEmpty else { continue }
            let tags = SlotTagScheme.tags(for: utterance, tokens: tokens)
            tagged = tagged || tags.contains { $0 != SlotTagScheme.outside }
            var timeouts: [RegexEntityMatcher.Timeout] = []
            let attributes = trainingExtractors[index % trainingExtractors.count].attributes(tokens, in: utterance.text, patternTimeouts: &timeouts)
            // A runaway pattern would cost its whole time budget on every utterance like this one (half an
            // hour on a few thousand), and then match nothing: refuse it at once, naming it.
            if let slow = timeouts.first {
                throw EntityTaggerError.invalidPattern(
                    entity: slow.entity, pattern: slow.pattern,
                    reason: "searching the training utterance '\(utterance.text.prefix(60))' took longer than its share of the time budget "
                        + "(\(RegexEntityMatcher.Timeout.budget)); \(RegexEntityMatcher.Timeout.backtrackingAdvice)")
            }
            sequences.append((attributes, tags))
            sequenceTokens.append((utterance.text, tokens))
        }
        guard tagged else { return nil }
        stage("features of \(sequences.count) utterances")
        var clustered: (featurizer: any WordVectorFeaturizer, clusters: WordVectorClusters)?
        if let encoder {
            let vectors = Self.wordVectors(of: sequenceTokens, featurizer: encoder)
            stage("word vectors from \(encoder.reference.model)")
            let clusters = WordVectorClusters.fit(vectors.flatMap { $0 }, dimension: encoder.wordVectorDimension,
                                                  sizes: options.wordClusterSizes, seed: 0x5107_C105)
            stage("word clusters (k = \(clusters.centroids.map { String($0.k) }.joined(separator: ", ")))")
            if !clusters.centroids.isEmpty {
                for (index, sequenceVectors) in vectors.enumerated() {
                    for (t, extra) in clusters.attributes(sequenceVectors).enumerated() { sequences[index].attributes[t] += extra }
                }
                clustered = (encoder, clusters)
            }
        }
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
        stage("CRF (\(crf.labelCount) tags, \(crf.stateFeatureCount) state features kept)")
        return try SlotTagger(crf: crf, dictionaryPhrases: dictionaryPhrases, patternDefinitions: patternDefinitions,
                              builtinFeatureTypes: builtinTypes, builtinLanguage: builtinLanguage, options: options,
                              wordVectors: clustered)
    }

    /// The encoder's vector of every token of each sequence, in batches of a few hundred texts.
    private static func wordVectors(of sequences: [(text: String, tokens: [WordTokenizer.Token])],
                                    featurizer: any WordVectorFeaturizer) -> [[[Float]]] {
        featurizer.wordVectors(for: sequences.map(\.text),
                               words: sequences.map { sequence in sequence.text.scalarOffsets(of: sequence.tokens.map(\.range)) })
    }

    /// The attributes of `tokens` of `text` at prediction: the features, plus the word clusters;
    /// appends to `patternTimeouts` the regex features that ran out of time on `text`.
    func attributes(_ tokens: [WordTokenizer.Token], in text: String, patternTimeouts: inout [RegexEntityMatcher.Timeout],
                    regexMatches: [RegexEntityMatcher.Match]? = nil) -> [[String]] {
        var result = features.attributes(tokens, in: text, patternTimeouts: &patternTimeouts, regexMatches: regexMatches)
        if let wordVectors, let vectors = Self.wordVectors(of: [(text, tokens)], featurizer: wordVectors.featurizer).first {
            for (t, extra) in wordVectors.clusters.attributes(vectors).enumerated() where t < result.count { result[t] += extra }
        }
        return result
    }

    /// The mentions the tagger finds in `text` (value = the text as written), in text order.
    public func entities(in text: String) -> [ExtractedEntity] {
        var timeouts: [RegexEntityMatcher.Timeout] = []
        return entities(in: text, patternTimeouts: &timeouts)
    }

    /// ``entities(in:)``, appending to `patternTimeouts` the regex features that ran out of time on
    /// `text` (the tagger then saw no match of theirs).
    public func entities(in text: String, patternTimeouts: inout [RegexEntityMatcher.Timeout]) -> [ExtractedEntity] {
        entities(in: text, patternTimeouts: &patternTimeouts, regexMatches: nil)
    }

    /// ``entities(in:patternTimeouts:)`` with the regex features' matches on `text` already found
    /// (``EntityExtractor``'s own search, when its patterns are the tagger's), or nil to search.
    func entities(in text: String, patternTimeouts: inout [RegexEntityMatcher.Timeout],
                  regexMatches: [RegexEntityMatcher.Match]?) -> [ExtractedEntity] {
        let tokens = WordTokenizer().tokens(in: text)
        guard !tokens.isEmpty else { return [] }
        let sequence = crf.attributeIDs(attributes(tokens, in: text, patternTimeouts: &patternTimeouts, regexMatches: regexMatches))
        let path = crf.viterbi(sequence).labels
        let tags = path.map { crf.labels[$0] }
        let lattice = crf.lattice(sequence)
        let tokenOffsets = text.scalarOffsets(of: tokens.map(\.range))
        return SlotTagScheme.spans(tags).map { span in
            let slot = SlotTagScheme.Slot(key: span.slot)
            let range = tokens[span.tokens.lowerBound].range.lowerBound..<tokens[span.tokens.upperBound - 1].range.upperBound
            let offsets = tokenOffsets[span.tokens.lowerBound].lowerBound..<tokenOffsets[span.tokens.upperBound - 1].upperBound
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
        /// Absent in models saved before built-in features (none).
        var builtinFeatures: [BuiltinEntityType]?
        var options: SlotTaggerOptions
        /// The encoder and word-cluster sizes of an encoder tagger; absent for a plain CRF.
        var wordVectors: WordVectorConfiguration?
    }

    /// What an encoder tagger records of its word vectors (centroids: `tagger.word_clusters.<k>` tensors).
    struct WordVectorConfiguration: Codable, Sendable {
        var encoder: SentenceFeaturizerReference
        var dimension: Int
        var clusterSizes: [Int]
    }

    static let offsetsTensor = "tagger.attribute_offsets"
    static let featureLabelsTensor = "tagger.feature_labels"
    static let weightsTensor = "tagger.weights"

    var configuration: Configuration {
        Configuration(labels: crf.labels, attributes: crf.attributes, dictionaryPhrases: dictionaryPhrases,
                      patterns: patternDefinitions, builtinFeatures: builtinFeatureTypes.isEmpty ? nil : builtinFeatureTypes,
                      options: options,
                      wordVectors: wordVectors.map { WordVectorConfiguration(encoder: $0.featurizer.reference, dimension: $0.clusters.dimension,
                                                                             clusterSizes: $0.clusters.centroids.map(\.k)) })
    }

    /// The tagger's tensors. Offsets and label indices are stored as F32, exact below 2²⁴ (checked on load).
    var namedWeights: [String: Tensor<Float>] {
        (wordVectors?.clusters.namedWeights ?? [:]).merging([Self.offsetsTensor: Tensor(shape: [crf.attributeOffsets.count], scalars: crf.attributeOffsets.map(Float.init)),
         Self.featureLabelsTensor: Tensor(shape: [crf.featureLabels.count], scalars: crf.featureLabels.map(Float.init)),
         Self.weightsTensor: Tensor(shape: [crf.weights.count], scalars: crf.weights.map(Float.init))]) { $1 }
    }

    /// Rebuilds a tagger from its configuration and tensors (`file` names the package in errors); an
    /// encoder tagger gets its encoder from `wordVectors`, called with the reference it recorded. Its built-in
    /// features read `builtinLanguage`, the model's (English for a model that recorded none).
    static func load(_ configuration: Configuration, tensor: (String) throws -> Tensor<Float>, file: String,
                     builtinLanguage: BuiltinLanguage? = .english,
                     wordVectors: (SentenceFeaturizerReference) throws -> any WordVectorFeaturizer) throws -> SlotTagger {
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
            var encoder: (featurizer: any WordVectorFeaturizer, clusters: WordVectorClusters)?
            if let stored = configuration.wordVectors {
                let clusters = try WordVectorClusters.load(sizes: stored.clusterSizes, dimension: stored.dimension, tensor: tensor)
                let featurizer = try wordVectors(stored.encoder)
                if let revision = stored.encoder.revision, featurizer.reference.model != stored.encoder.model || featurizer.reference.revision != revision {
                    throw EntityTaggerError.invalidModel("the tagger was trained on the word vectors of \(stored.encoder.model) (fingerprint \(revision)), but the encoder given is \(featurizer.reference.model) (fingerprint \(featurizer.reference.revision ?? "-")); retrain, or restore that model")
                }
                guard featurizer.wordVectorDimension == stored.dimension else {
                    throw EntityTaggerError.invalidModel("the tagger was trained on word vectors of \(stored.dimension) values from \(stored.encoder.model), but the encoder found gives \(featurizer.wordVectorDimension)")
                }
                encoder = (featurizer, clusters)
            }
            return try SlotTagger(crf: crf, dictionaryPhrases: configuration.dictionaryPhrases,
                                  patternDefinitions: configuration.patterns, builtinFeatureTypes: configuration.builtinFeatures ?? [],
                                  builtinLanguage: builtinLanguage, options: configuration.options, wordVectors: encoder)
        } catch let EntityTaggerError.invalidModel(reason) {
            throw EntityTaggerError.invalidModel(reason.hasPrefix(file) ? reason : "\(file): \(reason)")
        } catch let EntityTaggerError.invalidPattern(entity, pattern, reason) {
            // The tagger's own regex features, as saved: a damaged package, named like every other load error.
            throw EntityTaggerError.invalidModel("\(file): the slot tagger's regex '\(pattern)' for entity '\(entity)' is invalid: \(reason)")
        }
    }
}
