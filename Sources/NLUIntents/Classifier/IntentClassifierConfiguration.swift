/// The `config` of an intent-classifier package's `manifest.json` (documented in docs/intents.md, "How it classifies"): what
/// is needed besides the weights to featurize and answer exactly as at training time.
struct IntentClassifierConfiguration: Codable, Sendable {
    /// Class labels by output index; the "none" class, when trained, is the last.
    var labels: [String]
    /// The label of the "none" class, when the model has one.
    var noneLabel: String?
    /// Hidden layer sizes.
    var hiddenSizes: [Int]
    /// Featurization choices.
    var features: FeatureOptions
    /// Terms by feature index (`featurizer.idf` holds their IDF in the weights).
    var vocabulary: [String]
    /// The default confidence threshold under which there is no intent.
    var threshold: Float
    /// The options the model was trained with (for the record).
    var training: TrainingOptions
    /// Entity definitions and the slot tagger's configuration; absent in models without entities
    /// (and in every model saved before entities existed).
    var entities: Entities?
    /// The sentence embeddings appended to the bag of words (features `vocabulary.count ..<` + dimension);
    /// absent when the model was trained without them.
    var sentenceEmbeddings: SentenceFeaturizerReference?
    /// The fine-tuning settings of a model whose encoder was fine-tuned with its head (the encoder is
    /// the package's folder `sentenceEmbeddings.packagedModel`, the head `output.*`); absent otherwise.
    var fineTuning: IntentFineTuningOptions?
    /// The settings of a few-shot model (SetFit's contrastive encoder and logistic-regression head, the
    /// head `output.*`, the encoder as for ``fineTuning``); absent otherwise.
    var fewShot: SetFitOptions?
    /// The temperature dividing the logits before the softmax, fitted on held-out utterances
    /// (``IntentClassifier/calibrate(on:)``); absent: 1, an uncalibrated model.
    var temperature: Float?

    /// The oldest package format whose readers understand all of this model: 3 when its vocabulary holds
    /// n-grams across runs of Thai, Lao, Khmer or Myanmar letters (``LetterRunNGrams``: an earlier reader
    /// never makes them, and would answer without those features); 2 when it holds what a version-1 reader
    /// would skip and then answer differently without a word (a joint transformer tagger, a few-shot head,
    /// a calibration temperature, a language other than English); else 1, so that older builds keep
    /// reading the models they can.
    var packageFormatVersion: Int {
        if features.letterRunNGrams != nil, vocabulary.contains(where: LetterRunNGrams.isTerm) { return 3 }
        let english = features.language.map { $0.lowercased().hasPrefix("en") } ?? true
        let builtinsEnglish = entities?.language.map { $0.lowercased().hasPrefix("en") } ?? true
        let needsVersion2 = entities?.transformerTagger != nil || fewShot != nil || temperature != nil || !english || !builtinsEnglish
        return needsVersion2 ? 2 : 1
    }

    /// The entity part of the configuration (the tagger's weights are `tagger.*` tensors): the CRF
    /// tagger's, or a joint model's transformer tagger's (whose encoder is the fine-tuned one).
    struct Entities: Codable, Sendable {
        var definitions: [EntityDefinition]
        var tagger: SlotTagger.Configuration?
        var transformerTagger: TransformerSlotTagger.Configuration?
        /// The language the built-ins are read in (the dataset's code, ``BuiltinEntityLanguage``); absent: the
        /// features' language, then English (models saved before built-ins followed the language).
        var language: String?
    }
}
