import ArgumentParser
import NLUKit

/// The flag that sets each encoder-training setting the libraries range-check, and those checks' errors as usage
/// errors (exit 2) naming the flag: one table and one wording for `intents train --fine-tune`, `embed train` and
/// `qa train`, whose flags share their names.
enum TrainingFlags {
    /// A ``TrainingSettingError``'s setting (as the API spells it) → the flag that sets it.
    static let names = ["epochs": "--epochs", "batchSize": "--batch-size", "learningRate": "--learning-rate",
                        "warmupRatio": "--warmup-ratio", "weightDecay": "--weight-decay", "maxGradientNorm": "--max-grad-norm",
                        "headLearningRate": "--head-learning-rate", "accumulationSteps": "--gradient-accumulation",
                        "maxSequenceLength": "--max-length", "documentStride": "--doc-stride", "dropout": "--dropout",
                        "iterations": "--setfit-iterations", "headRegularization": "--setfit-head-c",
                        "keepBest": "--keep-best", "earlyStoppingPatience": "--early-stopping",
                        "slotLossCoefficient": "--slot-loss-weight", "labelSmoothing": "--label-smoothing"]

    /// Runs `check`; a ``TrainingSettingError`` it throws becomes a usage error "FLAG is VALUE: [context ]it must be
    /// REQUIREMENT", FLAG being `flag` where given (a check whose setting several flags share, such as a held-out
    /// fraction) and otherwise the flag that sets the error's setting.
    @discardableResult
    static func check<Result>(flag: String? = nil, context: String? = nil, _ check: () throws -> Result) throws -> Result {
        do {
            return try check()
        } catch let error as TrainingSettingError {
            let name = flag ?? names[error.setting] ?? error.setting
            throw ValidationError("\(name) is \(error.value): \(context.map { "\($0) " } ?? "")it must be \(error.requirement)")
        }
    }
}
