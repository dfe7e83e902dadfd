import Foundation
import NLUCore

extension IntentClassifier {
    /// Fine-tunes a BERT-family checkpoint (a sentence-transformers or Hugging Face folder) with a
    /// softmax head over its pooled sentence vector on `dataset` (``IntentFineTuner``), and returns
    /// it as an intent classifier: the encoder is its sentence featurizer (saved inside the package,
    /// folder ``ModelPackage/encoderFolderName``), the head its network without hidden layers.
    /// Counterexamples train a "none" class, as in ``train(on:features:training:entities:file:sentenceFeaturizer:wordVectors:progress:entityProgress:entityLog:)``;
    /// entities (slot tagger, dictionaries, regexes, built-ins) are trained exactly as there.
    /// `model` is what the package records as the model fine-tuned from (a Hub id or a directory).
    /// `validation` (scored after each epoch, handed to `validated`), `saving` and `resume` are
    /// ``IntentFineTuner/train(_:validation:saving:resume:progress:validated:checkpointSaved:)``'s.
    ///
    ///     let classifier = try IntentClassifier.fineTune(on: dataset, checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
    ///     try classifier.save(to: URL(fileURLWithPath: "tuned.nlumodel"))
    /// - Throws: ``IntentDatasetError`` for an unusable dataset, ``TrainingSettingError`` naming an
    ///   option out of range (or a dataset with fewer than 2 intents or an empty intent),
    ///   ``TrainingDivergedError`` when the loss stops being finite, the checkpoint's errors.
    public static func fineTune(on dataset: IntentDataset, checkpoint: URL, model: String? = nil,
                                options: IntentFineTuningOptions = IntentFineTuningOptions(),
                                entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                checkpointSaved: (Int) -> Void = { _ in },
                                progress: (IntentFineTuningProgress) -> Void = { _ in },
                                validated: (FineTuningValidation) -> Void = { _ in },
                                entityProgress: (Int, Double) -> Void = { _, _ in },
                                entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try entities?.validate()
        try checkForFineTuning(dataset, file: file, entities: entities, log: entityLog)
        let classes = headClasses(dataset)
        // Before the slot tagger trains: a validation set with nothing to score fails at once.
        if let validation { _ = try FineTuningValidation.labelled(validation, intents: classes.intents.map(\.name)) }
        let tuner = try IntentFineTuner(checkpoint: checkpoint, options: options)
        let extractor = try trainEntities(on: dataset, language: dataset.language, options: entities, file: file, wordVectors: nil,
                                          progress: entityProgress, log: entityLog)
        let result = try tuner.train(classes, validation: validation, saving: saving, resume: resume, progress: progress, validated: validated,
                                    checkpointSaved: checkpointSaved)
        let head = result.trainer.head.linear
        guard let bias = head.bias else {
            preconditionFailure("EncoderClassifierTrainer refuses a head without bias")
        }
        return try withEncoderHead(weight: head.weight, bias: bias, classes: classes, hasNoneClass: !dataset.counterexamples.isEmpty,
                                   extractor: extractor, featurizer: tuner.featurizer(for: result.trainer, model: model ?? checkpoint.path),
                                   fineTuning: options, fewShot: nil)
    }

    /// The classes an encoder's head is trained on: `dataset`'s intents, then its counterexamples as one
    /// more class, the "none" class, the last (as the bag of words has it).
    static func headClasses(_ dataset: IntentDataset) -> IntentDataset {
        var classes = dataset
        if !dataset.counterexamples.isEmpty { classes.intents.append(Intent(name: noneLabel, utterances: dataset.counterexamples)) }
        return classes
    }

    /// The intent classifier of a fine-tuned encoder (`featurizer`) and its linear head (`weight`
    /// [classes, features], `bias`) over ``headClasses(_:)``, with the settings it was trained with. The
    /// head's features are the bag of words `words` (when given) followed by the pooled vector.
    static func withEncoderHead(weight: Tensor<Float>, bias: Tensor<Float>, classes: IntentDataset, hasNoneClass: Bool,
                                extractor: EntityExtractor?, words: TextFeaturizer? = nil, featurizer: FineTunedEncoderFeaturizer,
                                fineTuning: IntentFineTuningOptions?, fewShot: SetFitOptions?) throws -> IntentClassifier {
        let network = try IntentNetwork(inputWeight: nil, inputBias: nil, hiddenWeights: [], hiddenBiases: [],
                                        outputWeight: weight, outputBias: bias)
        var classifier = IntentClassifier(
            labels: classes.intents.map(\.name), hasNoneClass: hasNoneClass,
            featurizer: words ?? TextFeaturizer(options: FeatureOptions(), terms: [], inverseDocumentFrequency: []),
            network: network, threshold: 0, trainingOptions: TrainingOptions(), entityExtractor: extractor,
            sentenceFeaturizer: featurizer, fineTuning: fineTuning, fewShot: fewShot)
        classifier.trainingTexts = TrainingTextFingerprint(classes.intents.flatMap { $0.utterances.map(\.text) })
        return classifier
    }

    /// What every fine-tuning run asks of `dataset` (named `file` in errors): a usable dataset in a language
    /// code, no intent named as the "none" class, and utterances in every intent. A language the built-ins do
    /// not read, when the dataset uses them, is logged (the encoder stems nothing: no stemmer is missed).
    static func checkForFineTuning(_ dataset: IntentDataset, file: String, entities: SlotTaggerOptions?,
                                   log: (String) -> Void) throws {
        let language = try IntentLanguage(code: dataset.language, place: "\(file): field 'language'")
        try dataset.validateForTraining(file: file)
        if let reserved = dataset.intents.first(where: { $0.name == noneLabel }) {
            throw IntentClassifierError.reservedIntentName(reserved.name)
        }
        if let empty = dataset.intents.first(where: { $0.utterances.isEmpty }) {
            throw TrainingSettingError(setting: "dataset", value: "\(file): intent '\(empty.name)' with no utterance",
                                       requirement: "at least one utterance per intent (add some, or remove the intent)")
        }
        warnAboutLanguage(language, stemming: false, dataset: dataset, entities: entities, file: file, log: log)
    }
}
