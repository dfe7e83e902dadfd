import Foundation
import NLUCore

extension IntentClassifier {
    /// Trains an intent classifier from few examples per intent in SetFit's way (``SetFitIntentTrainer``):
    /// the encoder of a BERT-family checkpoint (a sentence-transformers or Hugging Face folder)
    /// fine-tuned on contrastive pairs of the utterances, then a logistic-regression head on its
    /// normalized sentence vectors and, by default, the utterances' bag of words (``SetFitOptions/bagOfWords``). The package holds the encoder (folder ``ModelPackage/encoderFolderName``)
    /// and loads, predicts and serves as any fine-tuned model. Counterexamples are the "none" class;
    /// entities train as in ``train(on:features:training:entities:file:sentenceFeaturizer:wordVectors:progress:entityProgress:entityLog:)``.
    /// `model` is what the package records as the model fine-tuned from. ``SetFitOptions/suits(_:)``
    /// tells whether a dataset is few-shot enough for this mode. `validation` (scored after each epoch of
    /// the contrastive stage by a head fitted there, handed to `validated`), `saving` and `resume` are
    /// ``SetFitIntentTrainer/train(_:validation:saving:resume:progress:validated:checkpointSaved:)``'s: a
    /// checkpoint after each epoch of the contrastive stage.
    ///
    ///     let classifier = try IntentClassifier.fewShotFineTune(on: dataset, checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
    ///     try classifier.save(to: URL(fileURLWithPath: "few-shot.nlumodel"))
    /// - Throws: ``IntentDatasetError`` for an unusable dataset, ``TrainingSettingError`` naming a
    ///   setting out of range, or a dataset with fewer than 2 intents, an empty intent or too many
    ///   utterances; ``TrainingDivergedError`` when the loss stops being finite; the checkpoint's errors.
    public static func fewShotFineTune(on dataset: IntentDataset, checkpoint: URL, model: String? = nil,
                                       options: SetFitOptions = SetFitOptions(),
                                       entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                       validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                       checkpointSaved: (Int) -> Void = { _ in },
                                       progress: (IntentFineTuningProgress) -> Void = { _ in },
                                       validated: (FineTuningValidation) -> Void = { _ in },
                                       entityProgress: (Int, Double) -> Void = { _, _ in },
                                       entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try entities?.validate()
        try checkForFineTuning(dataset, file: file, entities: entities, log: entityLog)
        let trainer = try SetFitIntentTrainer(checkpoint: checkpoint, options: options)
        let extractor = try trainEntities(on: dataset, language: dataset.language, options: entities, file: file, wordVectors: nil,
                                          progress: entityProgress, log: entityLog)
        let classes = headClasses(dataset)
        // Before the slot tagger trains: a validation set with nothing to score fails at once.
        if let validation { _ = try FineTuningValidation.labelled(validation, intents: classes.intents.map(\.name)) }
        let result = try trainer.train(classes, validation: validation, saving: saving, resume: resume, progress: progress,
                                       validated: validated, checkpointSaved: checkpointSaved)
        var recorded = options
        recorded.headRegularization = result.headRegularization
        recorded.iterations = result.iterations
        return try withEncoderHead(weight: result.head.weight, bias: result.headBias, classes: classes,
                                   hasNoneClass: !dataset.counterexamples.isEmpty, extractor: extractor, words: result.words,
                                   featurizer: trainer.featurizer(for: result, model: model ?? checkpoint.path), fineTuning: nil, fewShot: recorded)
    }
}
