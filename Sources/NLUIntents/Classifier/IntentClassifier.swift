import Foundation
import NLUBuiltins
import NLUCore
import NLUInputOutput

/// An intent classifier trained on your machine: featurizes an utterance (``TextFeaturizer``) and
/// runs a small ReLU network (``IntentNetwork``) to get a probability per intent, with a "none"
/// class when the dataset has counterexamples or an out-of-scope label.
///
///     let dataset = try IntentImporter.importDataset(from: URL(fileURLWithPath: "workspace.json")).dataset
///     let classifier = try IntentClassifier.train(on: dataset)
///     try classifier.save(to: URL(fileURLWithPath: "car.nlumodel"))
///     let answer = classifier.predict("turn the radio on")   // answer.intent == "turn_on"
public struct IntentClassifier: Sendable {
    /// The package `kind` of intent classifiers.
    public static let modelKind = "intent-classifier"
    /// The label of the class trained from counterexamples (reserved: no intent may use it).
    public static let noneLabel = "(none)"

    /// Class labels by output index; ``noneLabel`` last when the model has a "none" class.
    public let labels: [String]
    /// Whether the last class is the "none" class.
    public let hasNoneClass: Bool
    /// The featurizer (vocabulary, IDF, options).
    public let featurizer: TextFeaturizer
    /// The network.
    public let network: IntentNetwork
    /// The default confidence threshold (0: always answer unless "none" wins).
    public var threshold: Float
    /// The training options used.
    public let trainingOptions: TrainingOptions
    /// The entity extractors (slot tagger, dictionaries, regexes); `nil` for a model trained without
    /// entities or saved before they existed: its predictions have no entities.
    public private(set) var entityExtractor: EntityExtractor?
    /// The sentence embeddings appended to the bag of words, when the model was trained with them;
    /// for a fine-tuned model, its encoder's pooled vectors (the only features, but for a few-shot
    /// head's bag of words: ``SetFitOptions/bagOfWords``).
    public let sentenceFeaturizer: (any SentenceFeaturizer)?
    /// The settings the encoder was fine-tuned with, for a model ``fineTune(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityProgress:entityLog:)``
    /// made (its network is then the linear head over the pooled vector); nil for a bag-of-words model.
    public let fineTuning: IntentFineTuningOptions?
    /// The settings of a few-shot model ``fewShotFineTune(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityProgress:entityLog:)``
    /// made (SetFit's way: its network is the logistic-regression head over the encoder's normalized vectors,
    /// after the bag of words when ``SetFitOptions/bagOfWords`` is true); nil otherwise.
    public let fewShot: SetFitOptions?
    /// The temperature dividing the logits before the softmax: 1 unless the model was calibrated on
    /// held-out utterances (``calibrate(on:)``), in range ``ConfidenceCalibration/temperatureRange``.
    public internal(set) var temperature: Float = 1
    /// The texts the model was trained on, as hashes (nil for a model saved before they were kept): an evaluation
    /// can tell that its test set repeats them.
    public internal(set) var trainingTexts: TrainingTextFingerprint?

    /// The intents (labels without the "none" class).
    public var intents: [String] { hasNoneClass ? Array(labels.dropLast()) : labels }

    init(labels: [String], hasNoneClass: Bool, featurizer: TextFeaturizer, network: IntentNetwork,
         threshold: Float, trainingOptions: TrainingOptions, entityExtractor: EntityExtractor? = nil,
         sentenceFeaturizer: (any SentenceFeaturizer)? = nil, fineTuning: IntentFineTuningOptions? = nil,
         fewShot: SetFitOptions? = nil) {
        self.labels = labels
        self.hasNoneClass = hasNoneClass
        self.featurizer = featurizer
        self.network = network
        self.threshold = threshold
        self.trainingOptions = trainingOptions
        self.entityExtractor = entityExtractor
        self.sentenceFeaturizer = sentenceFeaturizer
        self.fineTuning = fineTuning
        self.fewShot = fewShot
    }

    /// The network's input for `texts`: the bag of words, then the sentence features (when the model
    /// has them) at indices from the vocabulary's size on.
    func inputs(for texts: [String]) -> [SparseVector] {
        Self.inputs(for: texts, featurizer: featurizer, sentenceFeaturizer: sentenceFeaturizer)
    }

    private static func inputs(for texts: [String], featurizer: TextFeaturizer,
                               sentenceFeaturizer: (any SentenceFeaturizer)?) -> [SparseVector] {
        let vectors = texts.map(featurizer.vector(for:))
        guard let sentenceFeaturizer else { return vectors }
        return zip(vectors, sentenceFeaturizer.features(for: texts)).map { appending($1, to: $0, featurizer: featurizer) }
    }

    /// `vector` (a bag of words) with the sentence features `dense` at indices from the vocabulary's size on.
    static func appending(_ dense: [Float], to vector: SparseVector, featurizer: TextFeaturizer) -> SparseVector {
        var vector = vector
        let offset = Int32(featurizer.dimension)
        for (position, value) in dense.enumerated() where value != 0 {
            vector.indices.append(offset + Int32(position))
            vector.values.append(value)
        }
        return vector
    }

    // MARK: Training

    /// Trains a classifier on `dataset`: learns the vocabulary from the training part, holds out
    /// ``TrainingOptions/validationSplit`` of each intent for early stopping, and reports each epoch.
    /// With `entities` (the default) it also trains the slot tagger on the annotated utterances and
    /// keeps the dataset's entity dictionaries and regexes (``EntityExtractor``); `nil` turns entities off.
    /// `entityProgress(iteration, loss)` reports the tagger's L-BFGS iterations, `entityLog` its stages,
    /// and once a warning for what the language lacks (no stemmer, no built-ins: ``IntentLanguage``).
    /// With `sentenceFeaturizer`, each utterance's sentence embedding is appended to its bag of words;
    /// with `wordVectors`, the tagger may use the encoder's word vectors (``SlotTaggerOptions/kind``).
    /// The tagger is trained first: an encoder that computes sentence and word vectors in one pass
    /// (NLUKit's) then serves the sentence embeddings from that pass.
    /// - Throws: ``IntentDatasetError`` for an unusable dataset (fewer than two classes, empty
    ///   utterances, ...), ``IntentClassifierError`` for bad options or no features,
    ///   ``EntityTaggerError`` for bad tagger options or an invalid regex.
    public static func train(on dataset: IntentDataset, features: FeatureOptions = FeatureOptions(),
                             training: TrainingOptions = TrainingOptions(), entities: SlotTaggerOptions? = SlotTaggerOptions(),
                             file: String = "dataset", sentenceFeaturizer: (any SentenceFeaturizer)? = nil,
                             wordVectors: (any WordVectorFeaturizer)? = nil,
                             progress: (EpochReport) -> Void = { _ in },
                             entityProgress: (Int, Double) -> Void = { _, _ in },
                             entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try validate(training)
        // The dataset's language chooses the stemmer unless the options name one; the model keeps it.
        var features = features
        let language = try IntentLanguage(code: features.language ?? dataset.language,
                                          place: features.language == nil ? "\(file): field 'language'" : "FeatureOptions.language")
        features.language = language.code
        try features.validate()
        try entities?.validate()
        try dataset.validateForTraining(file: file)
        if let reserved = dataset.intents.first(where: { $0.name == noneLabel }) {
            throw IntentClassifierError.reservedIntentName(reserved.name)
        }
        warnAboutLanguage(language, stemming: features.stemming && features.maxFeatures != 0, dataset: dataset,
                          entities: entities, file: file, log: entityLog)
        let extractor = try trainEntities(on: dataset, language: features.language, options: entities, file: file,
                                          wordVectors: wordVectors, progress: entityProgress, log: entityLog)
        let intents = dataset.intents.filter { !$0.utterances.isEmpty }
        let hasNone = !dataset.counterexamples.isEmpty
        let labels = intents.map(\.name) + (hasNone ? [noneLabel] : [])
        var examples: [(String, Int)] = []
        for (index, intent) in intents.enumerated() { examples += intent.utterances.map { ($0.text, index) } }
        if hasNone { examples += dataset.counterexamples.map { ($0.text, labels.count - 1) } }

        // Stratified validation split, seeded.
        var generator = SplitMix64(seed: training.seed ^ 0x5EED_5A17)
        var trainingExamples: [(String, Int)] = []
        var validationExamples: [(String, Int)] = []
        for label in labels.indices {
            var members = examples.filter { $0.1 == label }
            members.shuffle(using: &generator)
            let held = Int((Double(members.count) * training.validationSplit).rounded(.down))
            validationExamples += members.prefix(held)
            trainingExamples += members.dropFirst(held)
        }
        let featurizer = TextFeaturizer.fit(trainingExamples.map(\.0), options: features)
        guard featurizer.dimension > 0 || sentenceFeaturizer != nil else {
            let minimum = featurizer.options.minDocumentFrequency ?? 1
            throw IntentClassifierError.noFeatures(reason: features.maxFeatures == 0
                ? "maxFeatures is 0 (no bag of words) and no sentence embeddings are given: the model would have no features"
                : "\(file): " + (minimum > 1
                    ? "no term occurs in at least \(minimum) training utterances (minimum document frequency)"
                    : "no training utterance yields a term (word or character n-gram)"))
        }
        if let sentenceFeaturizer {
            let dimension = sentenceFeaturizer.reference.dimension
            guard (1...65_536).contains(dimension) else {
                throw IntentClassifierError.invalidOption(option: "sentence embeddings", reason: "expected 1 to 65536 values per text, got \(dimension)")
            }
        }
        let vectorize = { (pairs: [(String, Int)]) in
            Array(zip(inputs(for: pairs.map(\.0), featurizer: featurizer, sentenceFeaturizer: sentenceFeaturizer), pairs.map(\.1)))
        }
        let inputDimension = featurizer.dimension + (sentenceFeaturizer?.reference.dimension ?? 0)
        var counts = [Int](repeating: 0, count: labels.count)
        for (_, label) in trainingExamples { counts[label] += 1 }
        let classWeights: [Float] = counts.map { count in
            guard training.classWeighting == .balanced, count > 0 else { return 1 }
            return Float(trainingExamples.count) / Float(labels.count * count)
        }
        try checkNetworkMemory(training, inputDimension: inputDimension, classes: labels.count)
        var trainer = NetworkTrainer(inputDimension: inputDimension, classCount: labels.count, options: training)
        let network = try trainer.train(vectorize(trainingExamples), validation: vectorize(validationExamples),
                                        classWeights: classWeights, progress: progress)
        var classifier = IntentClassifier(labels: labels, hasNoneClass: hasNone, featurizer: featurizer, network: network,
                                          threshold: 0, trainingOptions: training, entityExtractor: extractor,
                                          sentenceFeaturizer: sentenceFeaturizer)
        classifier.trainingTexts = TrainingTextFingerprint(examples.map(\.0))
        return classifier
    }

    /// Logs, once, what training in `language` lacks (``IntentLanguage/warning(stemming:builtins:)``): no
    /// stemmer when the words are `stemming`, no built-ins when the dataset uses them (its entities or, with
    /// `entities`, the tagger's features). One warning, not one per missing piece.
    static func warnAboutLanguage(_ language: IntentLanguage, stemming: Bool, dataset: IntentDataset,
                                  entities: SlotTaggerOptions?, file: String, log: (String) -> Void) {
        let usesBuiltins = entities.map { options in
            !BuiltinEntityMatcher(dataset.entities).isEmpty || !SlotTagger.builtinFeatureTypes(for: dataset, options: options).isEmpty
        } ?? false
        if let warning = language.warning(stemming: stemming, builtins: usesBuiltins) { log("warning: \(file): \(warning)") }
    }

    /// The slot tagger trained on `dataset` and the dataset's entity dictionaries and regexes, nil
    /// without `options` or when the dataset has no entities at all. The built-ins (entities and tagger
    /// features) read `language` (the dataset's unless the options name one; ``warnAboutLanguage`` says
    /// when they cannot).
    static func trainEntities(on dataset: IntentDataset, language: String?, options: SlotTaggerOptions?, file: String,
                              wordVectors: (any WordVectorFeaturizer)?, progress: (Int, Double) -> Void,
                              log: (String) -> Void) throws -> EntityExtractor? {
        guard let options else { return nil }
        var dataset = dataset
        dataset.language = language
        let tagger: SlotTagger?
        do {
            tagger = try SlotTagger.train(on: dataset, options: options, wordVectors: wordVectors, progress: progress, log: log)
        } catch let EntityTaggerError.invalidPattern(entity, pattern, reason) {
            // A pattern that runs away on the training data: the dataset's fault, named like its other errors.
            throw IntentDatasetError.invalidEntity(file: file, entity: entity, detail: "pattern '\(pattern)': \(reason)")
        } catch let EntityTaggerError.tooManyTags(_, count, needed, budget) {
            throw EntityTaggerError.tooManyTags(file: file, count: count, neededMiB: needed, budgetMiB: budget)
        }
        let candidate = try EntityExtractor(tagger: tagger, definitions: dataset.entities, language: language)
        return candidate.isEmpty ? nil : candidate
    }

    /// Checks every training option's range (the CLI maps the error's option to its flag).
    /// - Throws: ``IntentClassifierError/invalidOption(option:reason:)``.
    public static func validate(_ options: TrainingOptions) throws {
        func fail(_ option: String, _ reason: String) -> IntentClassifierError { .invalidOption(option: option, reason: reason) }
        guard !options.hiddenSizes.isEmpty, options.hiddenSizes.allSatisfy({ $0 >= 1 && $0 <= 65_536 }) else {
            throw fail("hidden sizes", "expected one or more sizes between 1 and 65536, got \(options.hiddenSizes)")
        }
        guard (1...100_000).contains(options.epochs) else { throw fail("epochs", "expected 1 to 100000, got \(options.epochs)") }
        guard (1...65_536).contains(options.batchSize) else { throw fail("batch size", "expected 1 to 65536, got \(options.batchSize)") }
        guard options.learningRate > 0, options.learningRate.isFinite else { throw fail("learning rate", "expected a positive number, got \(options.learningRate)") }
        guard options.weightDecay >= 0, options.weightDecay.isFinite else { throw fail("weight decay", "expected a finite number, 0 or more, got \(options.weightDecay)") }
        guard options.dropout >= 0, options.dropout < 1 else { throw fail("dropout", "expected 0 ≤ p < 1, got \(options.dropout)") }
        guard options.validationSplit >= 0, options.validationSplit < 1 else {
            throw fail("validation split", "expected 0 ≤ fraction < 1, got \(options.validationSplit)")
        }
        guard (1...100_000).contains(options.patience) else { throw fail("patience", "expected 1 to 100000, got \(options.patience)") }
        // The layers between hidden sizes are known before any text is read: 65536,65536 alone would
        // need 64 GiB of weights and optimizer state, found here rather than by the kernel's OOM killer.
        try checkNetworkMemory(options, inputDimension: 0, classes: 1)
    }

    /// Checks that the network `options.hiddenSizes` describes (with `inputDimension` features and
    /// `classes` outputs) fits in half of physical memory while it trains: every dense weight four
    /// times (weight, gradient, Adam's two moments), the first layer's rows three times (row-sparse
    /// Adam keeps no dense gradient), and the batch's activations and their gradients.
    /// - Throws: ``IntentClassifierError/invalidOption(option:reason:)`` naming the hidden sizes.
    static func checkNetworkMemory(_ options: TrainingOptions, inputDimension: Int, classes: Int) throws {
        let widths = options.hiddenSizes + [classes]
        var terms: [Int?] = [InputLimits.product([inputDimension, widths[0], 3])]
        for (fanIn, fanOut) in zip(widths, widths.dropFirst()) { terms.append(InputLimits.product([fanIn, fanOut, 4])) }
        terms += widths.map { InputLimits.product([$0, options.batchSize, 2]) }
        var elements: Int? = 0
        for term in terms {
            guard let sum = elements, let term else { elements = nil; break }
            let (next, overflow) = sum.addingReportingOverflow(term)
            elements = overflow ? nil : next
        }
        do {
            try InputLimits.checkMemory(elements: elements, what: "training memory")
        } catch let error as OutOfRangeError {
            let features = inputDimension > 0 ? " with \(inputDimension) input features" : ""
            throw IntentClassifierError.invalidOption(option: "hidden sizes", reason: "layers of \(options.hiddenSizes)\(features) and batches of \(options.batchSize) need \(error.value) of weights and optimizer state while training; expected \(error.expected)")
        }
    }

    /// Checks the manifest's own fields before any of them sizes a loop or an allocation: layer
    /// sizes and count, labels, and the recorded training options (same ranges as for training).
    /// - Throws: ``OutOfRangeError`` or ``IntentClassifierError/invalidModel(_:)`` naming the manifest and field.
    private static func validate(_ configuration: IntentClassifierConfiguration, manifest: String) throws {
        // No hidden layer: a fine-tuned encoder's linear head.
        let linearHead = configuration.fineTuning != nil || configuration.fewShot != nil
        try InputLimits.check(configuration.hiddenSizes.count, in: (linearHead ? 0 : 1)...64,
                              name: "config.hiddenSizes (count)", file: manifest)
        for (index, size) in configuration.hiddenSizes.enumerated() {
            try InputLimits.check(size, in: 1...65_536, name: "config.hiddenSizes[\(index)]", file: manifest)
        }
        guard !configuration.labels.isEmpty else {
            throw IntentClassifierError.invalidModel("\(manifest): field config.labels is empty")
        }
        // Each label names one output of the network: a repeated one left two probabilities under one
        // name, and `probabilities(for:)` trapped building its label → probability dictionary.
        var firstPosition = [String: Int]()
        for (position, label) in configuration.labels.enumerated() {
            if let first = firstPosition.updateValue(position, forKey: label) {
                throw IntentClassifierError.invalidModel("\(manifest): field config.labels lists '\(label)' twice (at \(first) and \(position)); labels must be distinct")
            }
        }
        if let none = configuration.noneLabel, configuration.labels.last != none {
            throw IntentClassifierError.invalidModel("\(manifest): field config.noneLabel '\(none)' must be the last of config.labels")
        }
        do {
            try validate(configuration.training)
        } catch let IntentClassifierError.invalidOption(option, reason) {
            throw IntentClassifierError.invalidModel("\(manifest): field config.training (\(option)): \(reason)")
        }
        // A fine-tuned encoder's settings (softmax head or few-shot), in range, and the folder holding it.
        let encoderSettings: [(field: String, validate: () throws -> Void)] = [
            configuration.fineTuning.map { settings in ("fineTuning", { try settings.validate() }) },
            configuration.fewShot.map { settings in ("fewShot", { try settings.validate() }) },
        ].compactMap { $0 }
        for (field, validate) in encoderSettings {
            do {
                try validate()
            } catch let error as TrainingSettingError {
                throw IntentClassifierError.invalidModel("\(manifest): field config.\(field).\(error.setting): \(error.value) (expected \(error.requirement))")
            }
            guard configuration.sentenceEmbeddings?.packagedModel != nil else {
                throw IntentClassifierError.invalidModel("\(manifest): field config.\(field) is set but config.sentenceEmbeddings.packagedModel does not name the fine-tuned encoder's folder")
            }
        }
        if let temperature = configuration.temperature {
            try InputLimits.check(Double(temperature), in: Double(ConfidenceCalibration.temperatureRange.lowerBound)...Double(ConfidenceCalibration.temperatureRange.upperBound),
                                  name: "config.temperature", file: manifest)
        }
    }

    // MARK: Prediction

    /// This model with its built-in entities read in `language` instead of the dataset's (the server's
    /// `/model/parse` with a `language`); intents and the slot tagger answer as trained.
    ///
    ///     let french = classifier.readingBuiltins(in: try BuiltinLanguage(code: "fr-FR"))
    public func readingBuiltins(in language: BuiltinLanguage) -> IntentClassifier {
        var copy = self
        copy.entityExtractor = entityExtractor?.readingBuiltins(in: language)
        return copy
    }

    /// The probability of every class for `text`, by label (the "none" class under ``noneLabel``).
    public func probabilities(for text: String) -> [String: Float] {
        Dictionary(uniqueKeysWithValues: zip(labels, network.probabilities(for: inputs(for: [text])[0], temperature: temperature)))
    }

    /// The intent of `text`: the most probable class, `nil` when that is the "none" class or when the
    /// best intent's probability is under `threshold` (default: the model's ``threshold``), and the
    /// `top` most probable intents. Built-in date-times ("tomorrow at 7pm") resolve against `reference`
    /// (default: the local time now). `sentenceFeatures`, when given, is the text's
    /// ``sentenceFeatures(for:)`` computed beforehand in one pass with other texts (``sharesEncoderPasses``).
    public func predict(_ text: String, top: Int = 5, threshold: Float? = nil, reference: ReferenceTime? = nil,
                        sentenceFeatures: [Float]? = nil) -> IntentPrediction {
        // Entities first: an encoder tagger's pass also gives the sentence embedding (NLUKit's encoder keeps it).
        var timeouts: [RegexEntityMatcher.Timeout] = []
        let entities = entityExtractor?.entities(in: text, reference: reference, patternTimeouts: &timeouts) ?? []
        let input = sentenceFeatures.map { Self.appending($0, to: featurizer.vector(for: text), featurizer: featurizer) } ?? inputs(for: [text])[0]
        let probabilities = network.probabilities(for: input, temperature: temperature)
        let intentCount = hasNoneClass ? labels.count - 1 : labels.count
        let order = (0..<intentCount).sorted { probabilities[$0] != probabilities[$1] ? probabilities[$0] > probabilities[$1] : $0 < $1 }
        let ranking = order.prefix(max(0, top)).map { IntentPrediction.RankedIntent(intent: labels[$0], confidence: probabilities[$0]) }
        let best = order.first
        let confidence = best.map { probabilities[$0] } ?? 0
        var intent = best.map { labels[$0] }
        if hasNoneClass, let noneProbability = probabilities.last, noneProbability > confidence { intent = nil }
        if confidence < (threshold ?? self.threshold) { intent = nil }
        return IntentPrediction(text: text, intent: intent, confidence: confidence, ranking: ranking,
                                entities: entities, warnings: timeouts.map(\.message))
    }

    // MARK: Saving and loading

    /// Saves the classifier as an `.nlumodel` package (atomically: an existing package at `url` is
    /// replaced only once the new one is complete).
    ///
    /// Only an intent-classifier package is replaced (any package with `replacing: .anyModelPackage`);
    /// a file or another folder at `url` is refused.
    ///
    ///     try classifier.save(to: URL(fileURLWithPath: "car.nlumodel"))
    public func save(to url: URL, metadata: [String: String] = [:], replacing: ModelPackage.Replacement = .sameKind) throws {
        let configuration = IntentClassifierConfiguration(
            labels: labels, noneLabel: hasNoneClass ? Self.noneLabel : nil, hiddenSizes: network.hiddenSizes,
            features: featurizer.options, vocabulary: featurizer.terms, threshold: threshold, training: trainingOptions,
            entities: entityExtractor.map {
                // The built-ins' language is written only where the features' does not already say it (fine-tuned models).
                IntentClassifierConfiguration.Entities(definitions: $0.definitions, tagger: $0.tagger?.configuration,
                                                       transformerTagger: $0.transformerTagger?.configuration,
                                                       language: $0.language == featurizer.options.language ? nil : $0.language)
            },
            sentenceEmbeddings: sentenceFeaturizer?.reference, fineTuning: fineTuning, fewShot: fewShot,
            temperature: temperature == 1 ? nil : temperature)
        var folders: ((URL) throws -> Void)?
        if let folder = sentenceFeaturizer?.reference.packagedModel {
            guard let packaged = sentenceFeaturizer as? any PackagedSentenceFeaturizer else {
                throw IntentClassifierError.invalidOption(option: "sentence embeddings",
                    reason: "the featurizer's model belongs in the package (\(folder)) but it cannot write its files")
            }
            folders = { try packaged.writeModel(to: $0.appendingPathComponent(folder)) }
        }
        var weights = network.namedWeights
        if let tagger = entityExtractor?.tagger { weights.merge(tagger.namedWeights) { current, _ in current } }
        if let tagger = entityExtractor?.transformerTagger { weights.merge(tagger.namedWeights) { current, _ in current } }
        weights["featurizer.idf"] = Tensor(shape: [featurizer.dimension], scalars: featurizer.inverseDocumentFrequency)
        var metadata = metadata
        if let trainingTexts, metadata[TrainingTextFingerprint.metadataKey] == nil {
            metadata[TrainingTextFingerprint.metadataKey] = trainingTexts.encoded
        }
        try ModelPackage.save(to: url, kind: Self.modelKind, config: configuration, metadata: metadata, weights: weights,
                              replacing: replacing, formatVersion: configuration.packageFormatVersion, folders: folders)
    }

    /// Loads a classifier saved by ``save(to:metadata:)`` (weights memory-mapped). A model trained
    /// with sentence embeddings gets its featurizer from `sentenceFeaturizer`, called with what the
    /// package recorded (NLUPipelines' `IntentClassifier.loadWithSentenceFeatures(from:)` passes a sentence-transformers model);
    /// an encoder slot tagger gets its word vectors from the same closure (the featurizer it returns
    /// must then also be a ``WordVectorFeaturizer``; the sentence features' one is reused when it is the same model).
    /// - Throws: ``ModelPackageError`` (missing files, newer format version, another kind),
    ///   ``SafeTensorsError`` (bad weights), ``IntentClassifierError/invalidModel(_:)``, or
    ///   ``IntentClassifierError/sentenceFeaturizerRequired(model:needed:reason:)`` when no or another featurizer is given.
    public static func load(from url: URL,
                            sentenceFeaturizer: ((SentenceFeaturizerReference) throws -> any SentenceFeaturizer)? = nil) throws -> IntentClassifier {
        let (configuration, metadata, weights) = try ModelPackage.load(from: url, kind: modelKind, config: IntentClassifierConfiguration.self)
        let manifest = url.appendingPathComponent(ModelPackage.manifestFileName).path
        try configuration.features.validate(file: manifest, prefix: "config.features.")
        try InputLimits.check(Double(configuration.threshold), in: 0...1, name: "config.threshold", file: manifest)
        try validate(configuration, manifest: manifest)
        func tensor(_ name: String) throws -> Tensor<Float> {
            guard weights.info(name) != nil else { throw IntentClassifierError.invalidModel("\(url.path): missing tensor '\(name)'") }
            // A NaN weight made every prediction "turn_on (nan%)": refused here, naming the file and the tensor.
            return try weights.finiteFloatTensor(name)
        }
        let hiddenCount = configuration.hiddenSizes.count - 1
        let network: IntentNetwork
        do {
            let linear = configuration.hiddenSizes.isEmpty
            network = try IntentNetwork(
                inputWeight: linear ? nil : tensor("input.weight"), inputBias: linear ? nil : tensor("input.bias"),
                hiddenWeights: (0..<max(0, hiddenCount)).map { try tensor("hidden.\($0).weight") },
                hiddenBiases: (0..<max(0, hiddenCount)).map { try tensor("hidden.\($0).bias") },
                outputWeight: tensor("output.weight"), outputBias: tensor("output.bias"))
        } catch IntentClassifierError.invalidModel(let reason) where !reason.hasPrefix(url.path) {
            throw IntentClassifierError.invalidModel("\(url.appendingPathComponent(ModelPackage.weightsFileName).path): \(reason)")
        }
        guard network.hiddenSizes == configuration.hiddenSizes else {
            throw IntentClassifierError.invalidModel("\(manifest): field config.hiddenSizes is \(configuration.hiddenSizes) but the weights have layers of \(network.hiddenSizes)")
        }
        let idf = try tensor("featurizer.idf")
        let sentenceDimension = configuration.sentenceEmbeddings?.dimension ?? 0
        guard network.inputDimension == configuration.vocabulary.count + sentenceDimension, idf.shape == [configuration.vocabulary.count] else {
            throw IntentClassifierError.invalidModel("\(url.path): the vocabulary has \(configuration.vocabulary.count) terms"
                + (sentenceDimension > 0 ? " and the sentence embeddings \(sentenceDimension) values" : "")
                + " but input.weight has \(network.inputDimension) rows and featurizer.idf \(idf.shape)")
        }
        var sentence: (any SentenceFeaturizer)?
        if let needed = configuration.sentenceEmbeddings {
            guard let sentenceFeaturizer else {
                throw IntentClassifierError.sentenceFeaturizerRequired(model: url.path, needed: needed,
                    reason: "load it with NLUKit (nlu intents predict does), which finds that model")
            }
            let made = try sentenceFeaturizer(needed)
            guard made.reference.dimension == needed.dimension else {
                throw IntentClassifierError.sentenceFeaturizerRequired(model: url.path, needed: needed,
                    reason: "the embedder found gives \(made.reference.dimension) values")
            }
            sentence = made
        }
        guard network.classCount == configuration.labels.count else {
            throw IntentClassifierError.invalidModel("\(url.path): \(configuration.labels.count) labels but output.weight has \(network.classCount) rows")
        }
        let featurizer = TextFeaturizer(options: configuration.features, terms: configuration.vocabulary,
                                        inverseDocumentFrequency: idf.scalars)
        var extractor: EntityExtractor?
        if let entities = configuration.entities {
            let language = entities.language ?? configuration.features.language
            let tagger = try entities.tagger.map {
                try SlotTagger.load($0, tensor: tensor, file: url.path,
                                    builtinLanguage: BuiltinEntityLanguage(code: language).language) { needed in
                    if let reused = sentence as? any WordVectorFeaturizer, reused.reference == needed { return reused }
                    guard let sentenceFeaturizer else {
                        throw IntentClassifierError.sentenceFeaturizerRequired(model: url.path, needed: needed,
                            reason: "its slot tagger uses that encoder's word vectors; load it with NLUKit (nlu intents predict does), which finds that model")
                    }
                    guard let made = try sentenceFeaturizer(needed) as? any WordVectorFeaturizer else {
                        throw IntentClassifierError.sentenceFeaturizerRequired(model: url.path, needed: needed,
                            reason: "its slot tagger needs word vectors, which the featurizer given does not compute")
                    }
                    return made
                }
            }
            let transformerTagger = try entities.transformerTagger.map { stored -> TransformerSlotTagger in
                // The joint model's tagger reads the fine-tuned encoder's states: the package's own encoder, as its intent head does.
                guard configuration.fineTuning != nil, let encoder = sentence as? any TokenStateFeaturizer else {
                    throw IntentClassifierError.invalidModel("\(manifest): field config.entities.transformerTagger needs the fine-tuned encoder "
                        + "(config.fineTuning and config.sentenceEmbeddings.packagedModel); load it with NLUKit (nlu intents predict does)")
                }
                return try TransformerSlotTagger.load(stored, tensor: tensor, file: url.path, encoder: encoder)
            }
            do {
                extractor = try EntityExtractor(tagger: tagger, transformerTagger: transformerTagger, definitions: entities.definitions,
                                                language: language)
            } catch let EntityTaggerError.invalidPattern(entity, pattern, reason) {
                throw EntityTaggerError.invalidModel("\(url.path): invalid regex '\(pattern)' for entity '\(entity)': \(reason)")
            }
        }
        var classifier = IntentClassifier(labels: configuration.labels, hasNoneClass: configuration.noneLabel != nil,
                                          featurizer: featurizer, network: network, threshold: configuration.threshold,
                                          trainingOptions: configuration.training, entityExtractor: extractor,
                                          sentenceFeaturizer: sentence, fineTuning: configuration.fineTuning,
                                          fewShot: configuration.fewShot)
        classifier.temperature = configuration.temperature ?? 1
        if let encoded = metadata[TrainingTextFingerprint.metadataKey] {
            guard let fingerprint = TrainingTextFingerprint(encoded: encoded) else {
                throw IntentClassifierError.invalidModel("\(manifest): metadata.\(TrainingTextFingerprint.metadataKey) is not the base64 of 4-byte hashes")
            }
            classifier.trainingTexts = fingerprint
        }
        return classifier
    }
}
