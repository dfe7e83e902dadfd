import Foundation
import NLUCore

extension IntentClassifier {
    /// Fine-tunes a BERT-family checkpoint jointly for the intents and the entities of `dataset`
    /// (``JointIntentSlotFineTuner``) and returns it as an intent classifier: the encoder is its
    /// sentence featurizer (saved inside the package, folder ``ModelPackage/encoderFolderName``), the
    /// intent head its network without hidden layers, and the slot head (with its CRF layer, if any)
    /// the ``TransformerSlotTagger`` of its ``EntityExtractor``, beside the dataset's dictionaries,
    /// regexes and built-ins. Counterexamples train a "none" class (their words tagged `O`).
    /// `model` is what the package records as the model fine-tuned from; `validation` (scored after
    /// each epoch, handed to `validated`), `saving` and `resume` are
    /// ``JointIntentSlotFineTuner/train(_:validation:saving:resume:progress:validated:checkpointSaved:)``'s. `entities`
    /// nil (no entities) is refused: the joint model learns the entities.
    ///
    ///     let classifier = try IntentClassifier.fineTuneJoint(on: dataset, checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
    ///     classifier.predict("book a table for 4 at 7pm").entities   // party_size "4", time "7pm"
    /// - Throws: ``IntentDatasetError`` for an unusable dataset, ``EntityTaggerError/noTrainingData(_:)``
    ///   for a dataset without entity annotations, ``EntityAnnotationError`` naming an utterance whose
    ///   span is out of range or overlaps another, ``TrainingSettingError`` naming an option out of range
    ///   (or too many tags, fewer than 2 intents, an empty intent), ``TrainingDivergedError``, the checkpoint's errors.
    public static func fineTuneJoint(on dataset: IntentDataset, checkpoint: URL, model: String? = nil,
                                     options: JointIntentSlotOptions = JointIntentSlotOptions(),
                                     entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                     validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                     checkpointSaved: (Int) -> Void = { _ in },
                                     progress: (IntentFineTuningProgress) -> Void = { _ in },
                                     validated: (FineTuningValidation) -> Void = { _ in },
                                     entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        guard entities != nil else {
            throw EntityTaggerError.invalidOption(option: "entities", reason: "the joint intent + slot model learns the entities; "
                                                  + "without entities, fine-tune the intents alone (IntentClassifier.fineTune)")
        }
        try checkForFineTuning(dataset, file: file, entities: entities, log: entityLog)
        guard dataset.intents.contains(where: { $0.utterances.contains { !$0.entities.isEmpty } }) else {
            throw EntityTaggerError.noTrainingData("\(file): no utterance has an entity annotation, and the transformer tagger learns its tags "
                                                   + "from annotated entity spans: annotate entities, or fine-tune the intents alone (without --tagger transformer)")
        }
        let tuner = try JointIntentSlotFineTuner(checkpoint: checkpoint, options: options)
        // The counterexamples are one more class for the intent head, the last, as the bag of words has it.
        var classes = dataset
        let hasNone = !dataset.counterexamples.isEmpty
        if hasNone { classes.intents.append(Intent(name: noneLabel, utterances: dataset.counterexamples)) }
        if let validation { _ = try FineTuningValidation.labelled(validation, intents: classes.intents.map(\.name)) }
        let result = try tuner.train(classes, validation: validation, saving: saving, resume: resume, progress: progress, validated: validated,
                                    checkpointSaved: checkpointSaved)
        let tagger = result.tagger
        entityLog("transformer tagger: \(tagger.tags.count) tags\(tagger.model.crf == nil ? "" : " with a CRF layer"), \(result.steps.count) optimizer steps")
        let head = tagger.model.intentHead
        guard let bias = head.bias, let slotBias = tagger.model.slotHead.bias else {
            preconditionFailure("JointIntentSlotModel refuses heads without bias")
        }
        let network = try IntentNetwork(inputWeight: nil, inputBias: nil, hiddenWeights: [], hiddenBiases: [],
                                        outputWeight: head.weight, outputBias: bias)
        let featurizer = tuner.featurizer(for: tagger, model: model ?? checkpoint.path)
        let slots = try TransformerSlotTagger(slotHead: Linear(weight: tagger.model.slotHead.weight, bias: slotBias), crf: tagger.model.crf,
                                              tags: tagger.tags, maxSequenceLength: tagger.maxSequenceLength, options: options,
                                              encoder: featurizer)
        let extractor = try EntityExtractor(tagger: nil, transformerTagger: slots, definitions: dataset.entities,
                                                language: dataset.language)
        var classifier = IntentClassifier(
            labels: tagger.intents, hasNoneClass: hasNone,
            featurizer: TextFeaturizer(options: FeatureOptions(), terms: [], inverseDocumentFrequency: []),
            network: network, threshold: 0, trainingOptions: TrainingOptions(), entityExtractor: extractor,
            sentenceFeaturizer: featurizer, fineTuning: options.training)
        classifier.trainingTexts = TrainingTextFingerprint(classes.intents.flatMap { $0.utterances.map(\.text) })
        return classifier
    }
}
