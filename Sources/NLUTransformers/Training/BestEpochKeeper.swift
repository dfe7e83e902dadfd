import NLUCore

/// Hugging Face Trainer's `load_best_model_at_end` with its `metric_for_best_model`, and its
/// `EarlyStoppingCallback`: after each epoch's validation the run's weights are kept when the score is
/// better than every earlier epoch's (strictly: higher, or lower for a loss), and put back at the end; with
/// a patience, the run stops once that many epochs in a row have not improved on the best.
///
/// The weights are held as values (``TrainedWeights/weights``): the next optimizer step copies each
/// tensor before writing it, so keeping an epoch costs one copy of the model, in memory.
///
///     var keeper = BestEpochKeeper(greaterIsBetter: true, patience: 2)
///     for epoch in 1...epochs {
///         // ... train the epoch, score the held-out data ...
///         keeper.record(epoch: epoch, score: accuracy, of: trainer)
///         if keeper.shouldStop(after: epoch) { break }
///     }
///     try keeper.restoreBest(into: trainer, trainedThrough: lastEpoch)
public struct BestEpochKeeper {
    /// The best epoch so far and its score.
    public struct Best: Codable, Sendable, Equatable {
        public var epoch: Int
        public var score: Double

        public init(epoch: Int, score: Double) {
            self.epoch = epoch
            self.score = score
        }
    }

    /// Whether a higher score is better (accuracy, F1) or a lower one (a loss).
    public let greaterIsBetter: Bool
    /// Epochs in a row without improvement after which the run stops; nil: it runs every epoch.
    public let patience: Int?
    /// The best epoch so far, nil before the first score.
    public private(set) var best: Best?
    /// The best epoch's weights (``TrainedWeights/weights`` order).
    public private(set) var weights: [Tensor<Float>]?

    /// A keeper with no epoch yet.
    public init(greaterIsBetter: Bool, patience: Int? = nil) {
        self.greaterIsBetter = greaterIsBetter
        self.patience = patience
    }

    /// A keeper continuing a run: `best` was the best epoch when it stopped, `weights` that epoch's.
    public init(greaterIsBetter: Bool, patience: Int?, best: Best, weights: [Tensor<Float>]) {
        self.init(greaterIsBetter: greaterIsBetter, patience: patience)
        self.best = best
        self.weights = weights
    }

    /// Checks a run's early-stopping patience: 1 ... 1000 epochs, and only with a score to count from.
    /// - Throws: ``TrainingSettingError`` (setting `earlyStoppingPatience`) naming what is wrong.
    public static func validate(patience: Int?, hasScore: Bool) throws {
        guard let patience else { return }
        try OptimizationSettings.check((1...1000).contains(patience), "earlyStoppingPatience", "\(patience)", "between 1 and 1000 epochs")
        try OptimizationSettings.check(hasScore, "earlyStoppingPatience", "\(patience) without keepBest",
                                       "given with keepBest, the score whose best epoch it counts from")
    }

    /// Whether `score` beats the best so far (any finite score beats none; a score that is nil or not
    /// finite never does).
    public func improves(_ score: Double?) -> Bool {
        guard let score, score.isFinite else { return false }
        guard let best else { return true }
        return greaterIsBetter ? score > best.score : score < best.score
    }

    /// Notes epoch `epoch`'s `score`; when it improves on the best, keeps `trainer`'s present weights (a
    /// ``FineTuningTrainer``'s encoder and heads, or an encoder alone).
    /// Returns whether it did.
    @discardableResult
    public mutating func record(epoch: Int, score: Double?, of trainer: some TrainedWeights) -> Bool {
        guard note(epoch: epoch, score: score) else { return false }
        weights = trainer.weights
        return true
    }

    /// Notes epoch `epoch`'s `score` without keeping weights, for a trainer that copies its own (the
    /// bag-of-words network's arrays). Returns whether it is the new best.
    @discardableResult
    public mutating func note(epoch: Int, score: Double?) -> Bool {
        guard improves(score), let score else { return false }
        best = Best(epoch: epoch, score: score)
        return true
    }

    /// Whether the run should stop after `epoch`: `patience` epochs have passed since the best one (an
    /// epoch with no score counts as not improving).
    public func shouldStop(after epoch: Int) -> Bool {
        guard let patience, let best else { return false }
        return Self.stops(after: epoch, bestEpoch: best.epoch, patience: patience)
    }

    /// The early-stopping rule: `patience` epochs have passed since `bestEpoch`.
    public static func stops(after epoch: Int, bestEpoch: Int, patience: Int) -> Bool {
        epoch - bestEpoch >= patience
    }

    /// Puts the best epoch's weights back into `trainer`, whose weights are those after `lastEpoch`
    /// (nothing to do when that is the best one, or when no epoch was scored). Returns the epoch the
    /// trainer now holds.
    @discardableResult
    public func restoreBest(into trainer: some TrainedWeights, trainedThrough lastEpoch: Int) throws -> Int {
        guard let best, let weights, best.epoch != lastEpoch else { return lastEpoch }
        try trainer.load(weights)
        return best.epoch
    }
}
