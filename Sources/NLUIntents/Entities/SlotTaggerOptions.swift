/// How the slot tagger (a linear-chain CRF) is trained: crfsuite's L1 / L2 coefficients and L-BFGS
/// stopping rules.
///
///     var options = SlotTaggerOptions()
///     options.c1 = 0      // pure L2: L-BFGS instead of OWL-QN
public struct SlotTaggerOptions: Codable, Sendable, Equatable {
    /// L1 coefficient (`c1 · ‖w‖₁`; above 0 trains by OWL-QN and keeps the model sparse).
    public var c1: Double = 0.1
    /// L2 coefficient (`c2 · ‖w‖²`).
    public var c2: Double = 0.1
    /// The most L-BFGS iterations.
    public var maxIterations: Int = 150
    /// Stop when the objective improved by less than this (relative) over 10 iterations.
    public var delta: Double = 1e-4

    /// How the annotated mentions become dictionary features ("inside a match of X"): 0, not at all
    /// (only the entity definitions' values and synonyms are dictionaries); 1, every mention, in
    /// training as at prediction; k ≥ 2, at prediction every mention, in training an utterance sees
    /// only the mentions of the other k − 1 folds.
    public var gazetteerFolds: Int = 5

    /// Which tagger to train.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// ``encoder`` when an encoder is given and the data has at least
        /// ``SlotTaggerOptions/encoderMinimumUtterances`` annotated utterances, else ``crf``.
        case automatic = "auto"
        /// The CRF on the word, shape, affix and dictionary features.
        case crf
        /// The CRF with, in addition, clusters of the encoder's contextual word vectors.
        case encoder
        /// The joint intent + slot model: the fine-tuned encoder tags the words (``TransformerSlotTagger``),
        /// trained with the intents by ``IntentClassifier/fineTuneJoint(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityLog:)``.
        case transformer
    }

    /// Which tagger to train (``Kind/automatic`` picks).
    public var kind: Kind = .automatic
    /// The fewest annotated utterances for which ``Kind/automatic`` picks the encoder tagger. Measured on
    /// stratified Snips subsets (docs/entities.md): with 70 annotated utterances the encoder tagger is no
    /// better (slot F1 −0.009), from 140 on it is (+0.03 to +0.04, and +0.0075 on all 13,784).
    public var encoderMinimumUtterances: Int = 100
    /// The numbers of word-vector clusters, one attribute family each (sizes above a eighth of the
    /// training tokens are skipped).
    public var wordClusterSizes: [Int] = [64, 256, 1024]
    /// Which built-in kinds become "inside a built-in match of kind X" features.
    public enum BuiltinFeatures: String, Codable, Sendable, CaseIterable {
        /// The kinds of the dataset's built-in entities (none when it has none).
        case dataset
        /// Every kind NLUBuiltins finds.
        case all
        /// None.
        case none
    }
    /// Which built-in kinds are tagger features (default: the dataset's).
    public var builtinFeatures: BuiltinFeatures = .dataset
    /// Whether each token's features also hold the utterance's other words by side (`L=w`, `R=w`:
    /// ``SlotFeatureExtractor/sentenceWords``), given at least ``sentenceWordsMinimumUtterances`` annotated
    /// utterances; a trained tagger's options say whether it has them. Measured in docs/entities.md (ATIS, Snips).
    public var sentenceWords: Bool = true
    /// The fewest annotated utterances for which ``sentenceWords`` applies. On 31 hand-written utterances the
    /// whole-utterance words made the CRF tag a comma after "turn on the stereo" as the device (EntityTests); the
    /// gains were measured on 4,959 (ATIS) and 13,784 (Snips). 1,000 lies between, not measured: small datasets
    /// keep the features they were measured with.
    public var sentenceWordsMinimumUtterances: Int = 1000

    /// The defaults.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case c1, c2, maxIterations, delta, gazetteerFolds, kind, encoderMinimumUtterances, wordClusterSizes, builtinFeatures, sentenceWords,
             sentenceWordsMinimumUtterances
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SlotTaggerOptions()
        c1 = try container.decodeIfPresent(Double.self, forKey: .c1) ?? defaults.c1
        c2 = try container.decodeIfPresent(Double.self, forKey: .c2) ?? defaults.c2
        maxIterations = try container.decodeIfPresent(Int.self, forKey: .maxIterations) ?? defaults.maxIterations
        delta = try container.decodeIfPresent(Double.self, forKey: .delta) ?? defaults.delta
        // Models saved before the option trained with every mention in (1 fold).
        gazetteerFolds = try container.decodeIfPresent(Int.self, forKey: .gazetteerFolds) ?? 1
        // Models saved before the encoder tagger were plain CRFs.
        kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .crf
        encoderMinimumUtterances = try container.decodeIfPresent(Int.self, forKey: .encoderMinimumUtterances) ?? defaults.encoderMinimumUtterances
        wordClusterSizes = try container.decodeIfPresent([Int].self, forKey: .wordClusterSizes) ?? defaults.wordClusterSizes
        // Models saved before built-in features had none.
        builtinFeatures = try container.decodeIfPresent(BuiltinFeatures.self, forKey: .builtinFeatures) ?? .none
        // Models saved before sentence-word features had none.
        sentenceWords = try container.decodeIfPresent(Bool.self, forKey: .sentenceWords) ?? false
        sentenceWordsMinimumUtterances = try container.decodeIfPresent(Int.self, forKey: .sentenceWordsMinimumUtterances)
            ?? defaults.sentenceWordsMinimumUtterances
    }

    func validate() throws {
        guard c1 >= 0, c1.isFinite else { throw EntityTaggerError.invalidOption(option: "c1", reason: "expected 0 or more, got \(c1)") }
        guard c2 >= 0, c2.isFinite else { throw EntityTaggerError.invalidOption(option: "c2", reason: "expected 0 or more, got \(c2)") }
        guard (1...100_000).contains(maxIterations) else {
            throw EntityTaggerError.invalidOption(option: "max iterations", reason: "expected 1 to 100000, got \(maxIterations)")
        }
        guard (0...100).contains(gazetteerFolds) else {
            throw EntityTaggerError.invalidOption(option: "gazetteer folds", reason: "expected 0 to 100, got \(gazetteerFolds)")
        }
        guard sentenceWordsMinimumUtterances >= 0 else {
            throw EntityTaggerError.invalidOption(option: "sentence words minimum utterances", reason: "expected 0 or more, got \(sentenceWordsMinimumUtterances)")
        }
        guard encoderMinimumUtterances >= 0 else {
            throw EntityTaggerError.invalidOption(option: "encoder minimum utterances", reason: "expected 0 or more, got \(encoderMinimumUtterances)")
        }
        guard wordClusterSizes.count <= 16, wordClusterSizes.allSatisfy({ (2...65_536).contains($0) }), Set(wordClusterSizes).count == wordClusterSizes.count else {
            throw EntityTaggerError.invalidOption(option: "word cluster sizes", reason: "expected at most 16 distinct numbers from 2 to 65536, got \(wordClusterSizes)")
        }
        guard delta >= 0, delta < 1 else { throw EntityTaggerError.invalidOption(option: "delta", reason: "expected 0 ≤ delta < 1, got \(delta)") }
    }
}
