import Foundation
import NLUCore
import NLUHub
import NLUIntents

extension IntentClassifier {
    /// ``fineTune(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityProgress:entityLog:)`` on a
    /// model reference resolved as every `--model` is: a directory, or a Hub id in the Hugging Face
    /// cache. The package records the reference (a directory as an absolute path) as its origin.
    ///
    ///     let classifier = try IntentClassifier.fineTune(on: dataset, model: "sentence-transformers/all-MiniLM-L6-v2")
    /// - Throws: ``ModelLocatorError`` when the model is not found (says how to download it), then
    ///   what fine-tuning throws.
    public static func fineTune(on dataset: IntentDataset, model: String,
                                options: IntentFineTuningOptions = IntentFineTuningOptions(),
                                entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                checkpointSaved: (Int) -> Void = { _ in },
                                progress: (IntentFineTuningProgress) -> Void = { _ in },
                                validated: (FineTuningValidation) -> Void = { _ in },
                                entityProgress: (Int, Double) -> Void = { _, _ in },
                                entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try fineTune(on: dataset, checkpoint: ModelLocator.resolve(model), model: EmbedderLoading.recordedSource(model),
                     options: options, entities: entities, file: file, validation: validation, saving: saving, resume: resume,
                     checkpointSaved: checkpointSaved, progress: progress, validated: validated,
                     entityProgress: entityProgress, entityLog: entityLog)
    }

    /// ``fewShotFineTune(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityProgress:entityLog:)`` on a
    /// model reference resolved as every `--model` is (a directory, or a Hub id in the Hugging Face cache).
    ///
    ///     let classifier = try IntentClassifier.fewShotFineTune(on: dataset, model: "sentence-transformers/all-MiniLM-L6-v2")
    /// - Throws: ``ModelLocatorError`` when the model is not found (says how to download it), then
    ///   what few-shot training throws.
    public static func fewShotFineTune(on dataset: IntentDataset, model: String, options: SetFitOptions = SetFitOptions(),
                                       entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                       validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                       checkpointSaved: (Int) -> Void = { _ in },
                                       progress: (IntentFineTuningProgress) -> Void = { _ in },
                                       validated: (FineTuningValidation) -> Void = { _ in },
                                       entityProgress: (Int, Double) -> Void = { _, _ in },
                                       entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try fewShotFineTune(on: dataset, checkpoint: ModelLocator.resolve(model), model: EmbedderLoading.recordedSource(model),
                            options: options, entities: entities, file: file, validation: validation, saving: saving, resume: resume,
                            checkpointSaved: checkpointSaved, progress: progress, validated: validated,
                            entityProgress: entityProgress, entityLog: entityLog)
    }
}
