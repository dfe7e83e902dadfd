import ArgumentParser
import Foundation
import NLUKit

/// Featurization and training options shared by `train` and `evaluate --folds`.
struct IntentsTrainingArguments: ParsableArguments {
    @Option(help: "Hidden layer sizes, comma-separated (e.g. 256 or 256,128).")
    var hidden: String = Defaults.hidden

    // Optional: --fine-tune has other defaults for the same settings (IntentsFineTuningArguments).
    @Option(help: "Most epochs (early stopping may end sooner) (default: \(TrainingOptions().epochs); with --fine-tune: \(IntentFineTuningOptions().epochs)).")
    var epochs: Int?

    @Option(help: "Utterances per mini-batch (default: \(TrainingOptions().batchSize); with --fine-tune: \(IntentFineTuningOptions().batchSize)).")
    var batchSize: Int?

    @Option(help: "Adam learning rate (default: \(TrainingOptions().learningRate); with --fine-tune, AdamW's peak rate: \(IntentFineTuningOptions().learningRate)).")
    var learningRate: Float?

    @Option(help: "L2 weight decay (default: \(TrainingOptions().weightDecay); with --fine-tune, AdamW's decoupled decay: \(IntentFineTuningOptions().weightDecay)).")
    var weightDecay: Float?

    @Option(help: "Dropout probability on hidden activations (default: \(TrainingOptions().dropout); with --fine-tune, in the encoder: \(IntentFineTuningOptions().dropout)).")
    var dropout: Float?

    @Option(help: "Fraction of each intent held out for early stopping (default: \(TrainingOptions().validationSplit); 0: no early stopping). With --fine-tune: the share of each intent held out and scored after each epoch, as --validation-file (0 ... 0.5; default: none).")
    var validationSplit: Double?

    @Option(help: "The bag-of-words network's early stopping: epochs without improvement on its --validation-split share before it stops (default: \(TrainingOptions().patience)). With --fine-tune: --keep-best SCORE --early-stopping N.")
    var patience: Int?

    @Option(help: "Class weighting in the loss: balanced or none.")
    var classWeighting: TrainingOptions.ClassWeighting = TrainingOptions().classWeighting

    @Option(help: "Random seed (initialization, shuffling, dropout, validation split) (default: \(TrainingOptions().seed)).")
    var seed: UInt64?

    @Option(help: "Word n-gram lengths, e.g. 1-2.")
    var wordNgrams: String = Defaults.wordNgrams

    @Option(help: "Character n-gram lengths inside words, e.g. 3-4, or none.")
    var charNgrams: String = Defaults.charNgrams

    @Option(help: "Character n-gram lengths across runs of Thai, Lao, Khmer or Myanmar letters (written without spaces), e.g. 3-4, or none.")
    var letterRunNgrams: String = Defaults.letterRunNgrams

    @Option(help: "Feature weighting: tfidf, counts or binary.")
    var weighting: FeatureOptions.Weighting = FeatureOptions().weighting

    @Option(help: "Drop terms found in fewer training utterances than this (default: 1 under 500 training utterances, 2 under 5000, else 3).")
    var minDf: Int?

    @Option(help: "Keep at most this many terms (most frequent first).")
    var maxFeatures: Int?

    @Flag(help: "With --embeddings: no bag of words, the sentence embedding is the only feature (train in one language, predict in others).")
    var noBagOfWords = false

    @Flag(help: "Do not stem words (by default they are stemmed with the Snowball stemmer of the dataset's language, English when it has none recorded).")
    var noStemming = false

    @Flag(help: "Do not lowercase.")
    var keepCase = false

    @Flag(help: "Do not train the slot tagger nor keep entity dictionaries and regexes (no entities in predictions).")
    var noEntities = false

    @Option(help: "Slot tagger (CRF) L1 coefficient (0: L-BFGS with L2 only).")
    var crfC1: Double = SlotTaggerOptions().c1

    @Option(help: "Slot tagger (CRF) L2 coefficient.")
    var crfC2: Double = SlotTaggerOptions().c2

    @Option(help: "Slot tagger (CRF) most L-BFGS iterations.")
    var crfIterations: Int = SlotTaggerOptions().maxIterations

    @Option(help: "Annotated mentions as slot-tagger dictionary features: 0 none, 1 all, k out of k folds (an utterance trains on the other folds' mentions).")
    var crfGazetteerFolds: Int = SlotTaggerOptions().gazetteerFolds

    @Option(help: "Slot tagger: auto (the encoder's word clusters as CRF features when --embeddings is given and the data has enough annotated utterances), crf, encoder (needs --embeddings), or transformer (the --fine-tune encoder tags the words, trained jointly with the intents).")
    var tagger: SlotTaggerOptions.Kind = SlotTaggerOptions().kind

    @Option(help: "Built-in entity kinds as slot-tagger features (\"inside a date match\"): dataset (the kinds of the dataset's built-in entities), all, or none.")
    var crfBuiltinFeatures: SlotTaggerOptions.BuiltinFeatures = SlotTaggerOptions().builtinFeatures

    // Exclusive: both flags at once contradict each other (by default the last one silently won).
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: "Slot tagger: each token also sees the utterance's other words, by side (before / after it), from 1,000 annotated utterances on.")
    var crfSentenceWords = SlotTaggerOptions().sentenceWords

    /// The slot tagger's options, `nil` with --no-entities.
    func entityOptions() throws -> SlotTaggerOptions? {
        guard !noEntities else { return nil }
        guard crfC1 >= 0, crfC1.isFinite else { throw ValidationError("--crf-c1 must be 0 or more, got \(crfC1)") }
        guard crfC2 >= 0, crfC2.isFinite else { throw ValidationError("--crf-c2 must be 0 or more, got \(crfC2)") }
        guard (1...100_000).contains(crfIterations) else { throw ValidationError("--crf-iterations must be between 1 and 100000, got \(crfIterations)") }
        guard (0...100).contains(crfGazetteerFolds) else { throw ValidationError("--crf-gazetteer-folds must be between 0 and 100, got \(crfGazetteerFolds)") }
        var options = SlotTaggerOptions()
        options.c1 = crfC1
        options.c2 = crfC2
        options.maxIterations = crfIterations
        options.gazetteerFolds = crfGazetteerFolds
        options.kind = tagger
        options.builtinFeatures = crfBuiltinFeatures
        options.sentenceWords = crfSentenceWords
        return options
    }

    func trainingOptions() throws -> TrainingOptions {
        var options = TrainingOptions()
        // Empty pieces kept: "256,,128" is a typo to report, not two layers.
        let sizes = hidden.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 65_536 }) else {
            throw ValidationError("--hidden expects comma-separated sizes between 1 and 65536, e.g. 256,128; got '\(hidden)'")
        }
        options.hiddenSizes = sizes.compactMap { $0 }
        options.epochs = epochs ?? options.epochs
        options.batchSize = batchSize ?? options.batchSize
        options.learningRate = learningRate ?? options.learningRate
        options.weightDecay = weightDecay ?? options.weightDecay
        options.dropout = dropout ?? options.dropout
        options.validationSplit = validationSplit ?? options.validationSplit
        options.patience = patience ?? options.patience
        options.classWeighting = classWeighting
        options.seed = seed ?? options.seed
        do {
            try IntentClassifier.validate(options)  // the ranges live in the library; here they are named by flag
        } catch IntentClassifierError.invalidOption(let option, let reason) {
            throw ValidationError("--\(option == "hidden sizes" ? "hidden" : option.replacingOccurrences(of: " ", with: "-")): \(reason)")
        }
        return options
    }

    func featureOptions() throws -> FeatureOptions {
        var options = FeatureOptions()
        options.wordNGrams = try IntentsOutput.range(wordNgrams, option: "--word-ngrams")
        options.characterNGrams = charNgrams.lowercased() == "none" ? nil : try IntentsOutput.range(charNgrams, option: "--char-ngrams")
        options.letterRunNGrams = letterRunNgrams.lowercased() == "none" ? nil
            : try IntentsOutput.range(letterRunNgrams, option: "--letter-run-ngrams")
        options.weighting = weighting
        if let minDf {
            guard minDf >= 1 else { throw ValidationError("--min-df must be at least 1, got \(minDf)") }
            options.minDocumentFrequency = minDf
        }
        if let maxFeatures {
            guard maxFeatures >= 1 else { throw ValidationError("--max-features must be at least 1, got \(maxFeatures) (--no-bag-of-words drops the bag of words)") }
            guard !noBagOfWords else { throw ValidationError("--max-features and --no-bag-of-words exclude each other") }
            options.maxFeatures = maxFeatures
        }
        if noBagOfWords { options.maxFeatures = 0 }
        options.stemming = !noStemming
        options.lowercase = !keepCase
        return options
    }

    /// The flags given that set only the bag-of-words network and its features (each away from its default):
    /// a --fine-tune model's features are its encoder's, and --few-shot's optional bag of words is the default one.
    var bagOfWordsFlagsGiven: [String] {
        [("--hidden", hidden != Defaults.hidden), ("--class-weighting", classWeighting != TrainingOptions().classWeighting),
         ("--word-ngrams", wordNgrams != Defaults.wordNgrams), ("--char-ngrams", charNgrams != Defaults.charNgrams),
         ("--letter-run-ngrams", letterRunNgrams != Defaults.letterRunNgrams), ("--weighting", weighting != FeatureOptions().weighting),
         ("--min-df", minDf != nil), ("--max-features", maxFeatures != nil), ("--no-stemming", noStemming),
         ("--keep-case", keepCase)].filter(\.1).map(\.0)
    }

    /// The text flags' defaults, as the library's options print them.
    private enum Defaults {
        static let hidden = TrainingOptions().hiddenSizes.map(String.init).joined(separator: ",")
        static let wordNgrams = "1-2"
        static let charNgrams = FeatureOptions().characterNGrams.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "none"
        static let letterRunNgrams = FeatureOptions().letterRunNGrams.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "none"
    }

    func validate() throws {
        _ = try trainingOptions()
        _ = try featureOptions()
        _ = try entityOptions()
    }
}

extension SlotTaggerOptions.BuiltinFeatures: ExpressibleByArgument {}
