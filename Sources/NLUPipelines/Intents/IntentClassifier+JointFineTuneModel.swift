import Foundation
import NLUCore
import NLUHub
import NLUIntents

extension IntentClassifier {
    /// ``fineTuneJoint(on:checkpoint:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityLog:)`` on a
    /// model reference resolved as every `--model` is: a directory, or a Hub id in the Hugging Face
    /// cache. The package records the reference (a directory as an absolute path) as its origin.
    ///
    ///     let classifier = try IntentClassifier.fineTuneJoint(on: dataset, model: "sentence-transformers/all-MiniLM-L6-v2")
    /// - Throws: ``ModelLocatorError`` when the model is not found (says how to download it), then
    ///   what joint fine-tuning throws.
    public static func fineTuneJoint(on dataset: IntentDataset, model: String,
                                     options: JointIntentSlotOptions = JointIntentSlotOptions(),
                                     entities: SlotTaggerOptions? = SlotTaggerOptions(), file: String = "dataset",
                                     validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil, resume: Bool = false,
                                     checkpointSaved: (Int) -> Void = { _ in },
                                     progress: (IntentFineTuningProgress) -> Void = { _ in },
                                     validated: (FineTuningValidation) -> Void = { _ in },
                                     entityLog: (String) -> Void = { _ in }) throws -> IntentClassifier {
        try fineTuneJoint(on: dataset, checkpoint: ModelLocator.resolve(model), model: EmbedderLoading.recordedSource(model),
                          options: options, entities: entities, file: file, validation: validation, saving: saving, resume: resume,
                          checkpointSaved: checkpointSaved, progress: progress, validated: validated, entityLog: entityLog)
    }
}
