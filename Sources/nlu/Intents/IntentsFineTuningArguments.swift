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

    @Option(help: "With --fine-tune: the peak learning rate of the new heads (intent, slots, CRF), on the same schedule as the encoder's (default: \(IntentFineTuningOptions().headLearningRate.map { "\($0)" } ?? "--learning-rate"); with --tagger transformer \(JointIntentSlotOptions().training.headLearningRate.map { "\($0)" } ?? "--learning-rate")).")
    var headLearningRate: Float?

    @Option(help: "With --fine-tune: micro-batches whose gradients add up into one optimizer step (default: \(IntentFineTuningOptions().accumulationSteps)).")
    var gradientAccumulation: Int?

    @Option(help: "With --fine-tune: gradients are clipped to this global norm before each step (default: \(IntentFineTuningOptions().maxGradientNorm)).")
    var maxGradNorm: Float?

    @Option(help: "With --fine-tune (the softmax head): label smoothing of the intent loss, from 0 up to 1 excluded, as Trainer's label_smoothing_factor: the target keeps 1 - F on the utterance's intent and spreads F over all intents (default: 0, none).")
    var labelSmoothing: Float?

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "With --fine-tune: few-shot training in SetFit's way (the encoder on contrastive pairs of the utterances, then a logistic-regression head on its sentence vectors and the utterances' bags of words), or not (the encoder with a softmax head). Default: few-shot when the median intent has at most \(SetFitOptions.fewShotMedian) utterances and there are at most \(SetFitOptions.fewShotMostUtterances) in all."))
    var fewShot: Bool?

    @Option(help: "With --few-shot: positive and negative pairs per utterance, each (SetFit's num_iterations; default: \(SetFitOptions.mostDefaultIterations), fewer down to 5 where that would make more than \(SetFitOptions.pairBudget) pairs).")
    var setfitIterations: Int?

    @Option(help: "With --few-shot: the logistic-regression head's inverse regularization strength (scikit-learn's C, above 0, at most 1e6; default: chosen by 5-fold cross-validation from 0.1 to 1000).")
    var setfitHeadC: Double?

    @Flag(inversion: .prefixedNo, help: "With --few-shot: the head reads each utterance's bag of words beside its sentence vector, or not (SetFit's head: the vector only). Default: on.")
    var setfitBagOfWords: Bool?

    @Option(help: "With --fine-tune: the share of each intent (and of the counterexamples) held out to calibrate the confidences: a temperature fitted on it, and the threshold that answers it best (default: 0, no calibration).")
    var calibrationSplit: Double?

    @Option(help: ArgumentHelp("With --fine-tune: held-out utterances (a dataset file, out-of-scope ones as counterexamples) to calibrate the confidences on instead of --calibration-split's share: a temperature fitted on them, and the threshold that answers them best. The training data stays whole.",
                               valueName: "file"))
    var calibrationFile: String?

    @Option(help: ArgumentHelp("With --fine-tune: held-out utterances scored after each epoch: intent accuracy and loss (with --few-shot, of a head fitted after each contrastive epoch), and with --tagger transformer the slots' F1. A report unless --keep-best: the last epoch is kept.",
                               valueName: "file"))
    var validationFile: String?

    @Option(help: ArgumentHelp("With --validation-file or --validation-split: the score that picks the epoch the package keeps: \(FineTuningMetric.allCases.map(\.rawValue).joined(separator: ", ")) (the last three with --tagger transformer). The best epoch's weights are put back at the end (default: the last epoch is kept).",
                               valueName: "score"))
    var keepBest: FineTuningMetric?

    @Option(help: ArgumentHelp("With --keep-best: stop once this many epochs in a row have not improved on the best score (default: every epoch runs; the bag-of-words network's is --patience).",
                               valueName: "epochs"))
    var earlyStopping: Int?

    /// The few-shot options from these flags and the shared ones (they set the encoder stage), checked by
    /// the library (errors name the flag).
    func setFitOptions(_ shared: IntentsTrainingArguments) throws -> SetFitOptions {
        if gradientAccumulation != nil {
            throw ValidationError("--gradient-accumulation does not apply to --few-shot (each step is one batch of pairs)")
        }
        if headLearningRate != nil {
            throw ValidationError("--head-learning-rate does not apply to --few-shot (its head is a logistic regression, fitted after the encoder)")
        }
        if labelSmoothing != nil {
            throw ValidationError("--label-smoothing does not apply to --few-shot (its encoder learns from pairs, its head is a logistic regression)")
        }
        var options = SetFitOptions()
        options.iterations = setfitIterations ?? options.iterations
        options.headRegularization = setfitHeadC ?? options.headRegularization
        options.bagOfWords = setfitBagOfWords ?? options.bagOfWords
        options.keepBest = keepBest
        options.earlyStoppingPatience = earlyStopping
        return try checked(applyingShared(shared, to: options))
    }

    /// The fine-tuning options from these flags and the shared ones over `defaults` (the joint model's
    /// differ), checked by the library (errors name the flag).
    func options(_ shared: IntentsTrainingArguments, defaults: IntentFineTuningOptions = IntentFineTuningOptions()) throws -> IntentFineTuningOptions {
        var options = defaults
        options.accumulationSteps = gradientAccumulation ?? options.accumulationSteps
        options.headLearningRate = headLearningRate ?? options.headLearningRate
        options.labelSmoothing = labelSmoothing ?? options.labelSmoothing
        options.keepBest = keepBest
        options.earlyStoppingPatience = earlyStopping
        return try checked(applyingShared(shared, to: options))
    }

    /// `options` with the settings every encoder recipe has taken from the flags given.
    private func applyingShared<Options: EncoderTrainingSettings>(_ shared: IntentsTrainingArguments, to options: Options) -> Options {
        var options = options
        options.epochs = shared.epochs ?? options.epochs
        options.batchSize = shared.batchSize ?? options.batchSize
        options.learningRate = shared.learningRate ?? options.learningRate
        options.weightDecay = shared.weightDecay ?? options.weightDecay
        options.dropout = shared.dropout ?? options.dropout
        options.seed = shared.seed ?? options.seed
        options.warmupRatio = warmupRatio ?? options.warmupRatio
        options.maxSequenceLength = maxLength
        options.maxGradientNorm = maxGradNorm ?? options.maxGradientNorm
        return options
    }

    /// `options` once the library has checked them; its error, naming the flag, as a usage error.
    private func checked<Options: EncoderTrainingSettings>(_ options: Options) throws -> Options {
        try TrainingFlags.check { try options.validate() }
        return options
    }
}

/// The settings the shared training flags set in each encoder recipe's options.
protocol EncoderTrainingSettings {
    var epochs: Int { get set }
    var batchSize: Int { get set }
    var learningRate: Float { get set }
    var weightDecay: Float { get set }
    var dropout: Float { get set }
    var seed: UInt64 { get set }
    var warmupRatio: Double { get set }
    var maxSequenceLength: Int? { get set }
    var maxGradientNorm: Float { get set }
    func validate() throws
}

extension IntentFineTuningOptions: EncoderTrainingSettings {}
extension SetFitOptions: EncoderTrainingSettings {}
