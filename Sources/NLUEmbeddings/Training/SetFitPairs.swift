import NLUCore

/// The contrastive pairs SetFit (1.2.0, `setfit.sampler.ContrastiveDataset`) trains a sentence encoder on
/// for few-shot classification: from labelled sentences, every pair of sentences (each sentence with
/// itself included, as `itertools.combinations_with_replacement`) in an order shuffled by NumPy's
/// `RandomState(42)`; a pair of one label is positive (score 1), of two labels negative (score 0). The
/// run then takes as many positives and as many negatives as the sampling strategy says, cycling through
/// each list, and interleaves them positive, negative, positive... Fed to ``SentenceEncoderFineTuner`` as
/// `.scored` pairs they train with the cosine loss, as SetFit's default `CosineSimilarityLoss` does.
/// The pairs equal setfit's own, in order (the generator is mirrored: ``MersenneTwister``).
///
/// - ``Strategy/oversampling`` (SetFit's default): positives and negatives each as many as the larger list.
/// - ``Strategy/undersampling``: each as many as the smaller list.
/// - ``Strategy/unique``: every pair once.
/// - `iterations` (SetFit's `num_iterations`), when given, overrides the strategy: `iterations × sentences`
///   positives and as many negatives.
///
///     let pairs = try SetFitPairs.make(sentences: ["hi", "hello", "bye"], labels: [0, 0, 1])
///     // 4 positive pairs (hi-hi, hi-hello, hello-hello, bye-bye) and 2 negative ones, oversampled to 4 + 4
///     let result = try tuner.train(.scored(pairs), output: url)
public enum SetFitPairs {
    /// How many positive and negative pairs a run takes.
    public enum Strategy: String, Sendable, CaseIterable {
        case oversampling, undersampling, unique
    }

    /// The most sentences: their pairs grow as the square (4096 sentences make 8.4 million pairs).
    public static let maximumSentences = 4096

    /// The pairs for `sentences` with `labels` (one per sentence, any integers naming the classes).
    /// - Throws: ``TrainingSettingError`` for labels that do not match the sentences, fewer than 2 or
    ///   more than ``maximumSentences`` sentences, a single label (no negative pair), or `iterations` outside
    ///   1 ... 1000.
    public static func make(sentences: [String], labels: [Int], strategy: Strategy = .oversampling,
                            iterations: Int? = nil) throws -> [TrainingPairs.ScoredPair] {
        guard labels.count == sentences.count else {
            throw TrainingSettingError(setting: "labels", value: "\(labels.count) labels", requirement: "one per sentence (\(sentences.count))")
        }
        guard (2...maximumSentences).contains(sentences.count) else {
            throw TrainingSettingError(setting: "sentences", value: "\(sentences.count)", requirement: "between 2 and \(maximumSentences)")
        }
        guard Set(labels).count >= 2 else {
            throw TrainingSettingError(setting: "labels", value: "one label", requirement: "at least 2 labels, or there is no negative pair")
        }
        if let iterations, !(1...1000).contains(iterations) {
            throw TrainingSettingError(setting: "iterations", value: "\(iterations)", requirement: "between 1 and 1000")
        }
        // np.triu_indices(n, 0): (i, j) with j ≥ i, row by row.
        let count = sentences.count
        var combinations: [(Int32, Int32)] = []
        combinations.reserveCapacity(count * (count + 1) / 2)
        for i in 0..<count { for j in i..<count { combinations.append((Int32(i), Int32(j))) } }
        var random = MersenneTwister(seed: 42)
        var positives: [TrainingPairs.ScoredPair] = [], negatives: [TrainingPairs.ScoredPair] = []
        for index in random.permutation(combinations.count) {
            let (i, j) = (Int(combinations[index].0), Int(combinations[index].1))
            if labels[i] == labels[j] {
                positives.append(TrainingPairs.ScoredPair(first: sentences[i], second: sentences[j], score: 1))
            } else {
                negatives.append(TrainingPairs.ScoredPair(first: sentences[i], second: sentences[j], score: 0))
            }
        }
        let (positiveCount, negativeCount): (Int, Int)
        if let iterations {
            (positiveCount, negativeCount) = (iterations * count, iterations * count)
        } else {
            switch strategy {
            case .unique: (positiveCount, negativeCount) = (positives.count, negatives.count)
            case .undersampling: (positiveCount, negativeCount) = (min(positives.count, negatives.count), min(positives.count, negatives.count))
            case .oversampling: (positiveCount, negativeCount) = (max(positives.count, negatives.count), max(positives.count, negatives.count))
            }
        }
        var pairs: [TrainingPairs.ScoredPair] = []
        pairs.reserveCapacity(positiveCount + negativeCount)
        // zip_longest(positives, negatives), each list cycled to its count.
        for k in 0..<max(positiveCount, negativeCount) {
            if k < positiveCount { pairs.append(positives[k % positives.count]) }
            if k < negativeCount { pairs.append(negatives[k % negatives.count]) }
        }
        return pairs
    }
}
