import ArgumentParser
import Foundation
import NLUKit

/// The settings only `intents train --fine-tune` reads; `--epochs`, `--batch-size`, `--learning-rate`,
/// `--weight-decay`, `--dropout` and `--seed` come from ``IntentsTrainingArguments`` with the fine-tuning defaults.
struct IntentsFineTuningArguments: ParsableArguments {
    @Option(help: "With --fine-tune: the share of optimizer steps over which the learning rate rises from 0 (default: \(IntentFineTuningOptions().warmupRatio)).")
    var warmupRatio: Double?

    @Option(help: "With --fine-tune: tokens per training utterance, [CLS] and [SEP] included; longer ones are cut (default: the model's own limit).")
    var maxLength: Int?

    @Option(help: "With --fine-tune: micro-batches whose gradients add up into one optimizer step (default: \(IntentFineTuningOptions().accumulationSteps)).")
    var gradientAccumulation: Int?

    @Option(help: "With --fine-tune: gradients are clipped to this global norm before each step (default: \(IntentFineTuningOptions().maxGradientNorm)).")
    var maxGradNorm: Float?

    /// The flag of each ``IntentFineTuningOptions`` setting, for errors.
    static let flags = ["epochs": "--epochs", "batchSize": "--batch-size", "learningRate": "--learning-rate",
                        "warmupRatio": "--warmup-ratio", "weightDecay": "--weight-decay", "maxGradientNorm": "--max-grad-norm",
                        "accumulationSteps": "--gradient-accumulation", "maxSequenceLength": "--max-length", "dropout": "--dropout"]

    /// The fine-tuning options from these flags and the shared ones, checked by the library (errors name the flag).
    func options(_ shared: IntentsTrainingArguments) throws -> IntentFineTuningOptions {
        var options = IntentFineTuningOptions()
        options.epochs = shared.epochs ?? options.epochs
        options.batchSize = shared.batchSize ?? options.batchSize
        options.learningRate = shared.learningRate ?? options.learningRate
        options.weightDecay = shared.weightDecay ?? options.weightDecay
        options.dropout = shared.dropout ?? options.dropout
        options.seed = shared.seed ?? options.seed
        options.warmupRatio = warmupRatio ?? options.warmupRatio
        options.maxSequenceLength = maxLength
        options.accumulationSteps = gradientAccumulation ?? options.accumulationSteps
        options.maxGradientNorm = maxGradNorm ?? options.maxGradientNorm
        do {
            try options.validate()
        } catch let error as TrainingSettingError {
            throw ValidationError("\(Self.flags[error.setting] ?? error.setting) is \(error.value): it must be \(error.requirement)")
        }
        return options
    }
}
