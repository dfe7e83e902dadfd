import NLUCore
import NLUTransformers

/// The settings of few-shot intent training in SetFit's way (``SetFitIntentTrainer``), with setfit
/// 1.2.0's `TrainingArguments` defaults for the encoder stage (batches of 16 pairs, 1 epoch, learning
/// rate 2e-5, 10 % warm-up, weight decay 0.01 (`l2_weight`), `CosineSimilarityLoss`, Trainer's clipping
/// at norm 1, the model's dropout 0.1, seed 42) and scikit-learn's logistic regression for the head.
/// Two defaults differ. The head's `C` is chosen by cross-validation (``headRegularization`` nil; setfit
/// fixes it at 1, which holds many-intent heads back: ``LogisticRegressionHead/crossValidatedRegularization(features:labels:classes:grid:progress:)``).
/// And `iterations` (setfit's `num_iterations`) is set, where setfit 1.2.0 leaves it unset and
/// oversamples (640 utterances, 64 intents × 10, then make 403,200 pairs): by default 40, twice the SetFit
/// paper's setting and setfit 0.x's default, as long as the pairs stay within ``pairBudget``, fewer
/// beyond it (``defaultIterations(utterances:)``). Every value is checked by ``validate()``; an error
/// names the setting.
///
///     var options = SetFitOptions()
///     options.iterations = 10
///     try options.validate()
public struct SetFitOptions: Codable, Sendable, Equatable {
    /// Positive and negative pairs per training utterance (setfit's `num_iterations`): `iterations × utterances`
    /// of each (1 ... 1000); nil: ``defaultIterations(utterances:)``. A saved model records the number used.
    public var iterations: Int?
    /// Passes over the pairs (1 ... 1000).
    public var epochs = 1
    /// Pairs per optimizer step (1 ... 4096): twice as many texts go through the encoder.
    public var batchSize = 16
    /// The encoder's peak learning rate, after warm-up (above 0, at most 1).
    public var learningRate: Float = 2e-5
    /// The share of optimizer steps over which the rate rises from 0 (0 ... 1).
    public var warmupRatio: Double = 0.1
    /// AdamW's decoupled weight decay, on every weight but biases and layer norms (0 ... 1).
    public var weightDecay: Float = 0.01
    /// Gradients are clipped to this global norm before each update (above 0).
    public var maxGradientNorm: Float = 1
    /// Seeds the pairs' order and dropout: one seed, one run (the pairs themselves are setfit's, seed 42).
    public var seed: UInt64 = 42
    /// Tokens per utterance, `[CLS]` and `[SEP]` included; nil: the model's own limit (3 ... its positions).
    public var maxSequenceLength: Int?
    /// The probability of dropout in the encoder's hidden states and attention (0 ..< 1).
    public var dropout: Float = 0.1
    /// The head's inverse L2 strength, scikit-learn's `C` (above 0, at most 1e6); nil: chosen by
    /// 5-fold cross-validation over 0.1 ... 1000 (setfit's head has 1). A saved model records the `C`
    /// its head was fitted with.
    public var headRegularization: Double?
    /// Whether the head reads the utterance's bag of words (the intent model's default ``FeatureOptions``,
    /// unit length) beside its sentence vector, as `--embeddings` models do. True by default: on Snips and
    /// HWU64 at 5 and 10 per intent it answered 0.7 to 1.5 points more than the sentence vector alone
    /// (docs/intents.md). False: SetFit's head, the sentence vector only. Nil in a model saved before the
    /// setting existed, whose head reads the sentence vector only.
    public var bagOfWords: Bool? = true
    /// The held-out score that picks the contrastive epoch the run keeps: after each epoch the head is fitted
    /// on the encoder as it stands and scored on the validation utterances (``FineTuningMetric/accuracy`` or
    /// ``FineTuningMetric/loss``, the head's cross-entropy), and the best epoch's encoder is put back at the
    /// end, as ``IntentFineTuningOptions/keepBest`` does for the softmax head. Needs validation utterances;
    /// nil: the last epoch.
    public var keepBest: FineTuningMetric?
    /// With ``keepBest``: epochs in a row without improvement after which the run stops (1 ... 1000); nil:
    /// every epoch runs.
    public var earlyStoppingPatience: Int?

    /// The defaults.
    public init() {}

    /// The pairs (positive and negative together) up to which a run makes ``mostDefaultIterations`` of each
    /// kind per utterance by default: 400 optimizer steps of 16 pairs. Measured with all-MiniLM-L6-v2
    /// (docs/intents.md): on Snips at 10 per intent (70 utterances) and the car-dashboard sample at 8 per
    /// intent (88), 5 iterations lose 6 and 3 points to 20; on HWU64 at 10 per intent (640 utterances,
    /// 25,600 pairs at 20), 5 iterations (6,400 pairs) are as accurate (81.7 % against 79.7 %) in a fifth
    /// of the time.
    public static let pairBudget = 6_400

    /// The most pairs of each kind per utterance a run makes by default: on Snips at 10 per intent (three
    /// seeded samples) 40 answered 95.71 / 96.71 / 94.57 % against 95.43 / 95.57 / 94.00 % at 20 (45:
    /// 95.57 / 96.29 / 94.86 %): a small set gains from the steps the budget still allows.
    public static let mostDefaultIterations = 40

    /// The default `iterations` for `utterances` training utterances: ``mostDefaultIterations``, or fewer
    /// (not below 5) where that would make more than ``pairBudget`` pairs.
    public static func defaultIterations(utterances: Int) -> Int {
        guard utterances > 0 else { return mostDefaultIterations }
        return min(mostDefaultIterations, max(5, (pairBudget + 2 * utterances - 1) / (2 * utterances)))
    }

    /// The pairs of each kind a run on `utterances` utterances makes per utterance: ``iterations``, else the default.
    public func iterations(forUtterances utterances: Int) -> Int {
        iterations ?? Self.defaultIterations(utterances: utterances)
    }

    /// The most examples per intent (the median over the intents) for which `nlu intents train
    /// --fine-tune` picks this mode by itself: docs/intents.md gives the measurement behind it.
    public static let fewShotMedian = 16

    /// The most utterances in all for which `nlu intents train --fine-tune` picks this mode by itself.
    /// The softmax head learns from batches of utterances, so it is a matter of steps: at its defaults
    /// (3 epochs of 16) 400 utterances give it 75, where it ties with this mode (HWU64, 5 per intent);
    /// with twice that it wins (10 per intent), with far fewer it loses (Snips, 10 per intent: 15 steps).
    public static let fewShotMostUtterances = 400

    /// Whether `dataset` is few-shot: the median number of utterances per intent (counterexamples
    /// aside) is at most ``fewShotMedian`` and there are at most ``fewShotMostUtterances`` in all.
    public static func suits(_ dataset: IntentDataset) -> Bool {
        let counts = dataset.intents.map(\.utterances.count).sorted()
        guard !counts.isEmpty, counts.reduce(0, +) <= fewShotMostUtterances else { return false }
        let middle = counts.count / 2
        let median = counts.count % 2 == 1 ? Double(counts[middle]) : Double(counts[middle - 1] + counts[middle]) / 2
        return median <= Double(fewShotMedian)
    }

    /// Throws for the first setting outside its range.
    /// - Throws: ``TrainingSettingError`` naming the setting, its value and the range.
    public func validate() throws {
        try OptimizationSettings.validate(
            epochs: epochs, batchSize: batchSize, learningRate: learningRate, usualLearningRate: "2e-5", warmupRatio: warmupRatio,
            weightDecay: weightDecay, maxGradientNorm: maxGradientNorm, accumulationSteps: nil, dropout: dropout,
            maxSequenceLength: maxSequenceLength)
        if let iterations {
            try OptimizationSettings.check((1...1000).contains(iterations), "iterations", "\(iterations)", "between 1 and 1000 (20 is SetFit's)")
        }
        if let headRegularization {
            try OptimizationSettings.check(headRegularization.isFinite && headRegularization > 0 && headRegularization <= 1e6,
                                           "headRegularization", "\(headRegularization)", "above 0 and at most 1e6 (scikit-learn's C; 1 is its default)")
        }
        if let keepBest, keepBest.needsSlots {
            throw TrainingSettingError(setting: "keepBest", value: keepBest.rawValue,
                                       requirement: "a score of the few-shot head (accuracy or loss); slot scores need the joint model")
        }
        try BestEpochKeeper.validate(patience: earlyStoppingPatience, hasScore: keepBest != nil)
    }
}
