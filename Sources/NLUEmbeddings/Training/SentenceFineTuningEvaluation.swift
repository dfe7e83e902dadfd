import NLUCore
import NLUTransformers

/// How the model under ``SentenceEncoderFineTuner`` scores held-out pairs at the end of an epoch, as
/// sentence-transformers' evaluators score them:
/// - **scored pairs** (`sentence1`, `sentence2`, `score`): the Pearson and Spearman correlations of the
///   pairs' cosine similarities with their scores (`EmbeddingSimilarityEvaluator`; Spearman on ranks,
///   ties given their mean rank as scipy's `spearmanr`);
/// - **anchor/positive pairs** (`anchor`, `positive`[, `negative`]): each anchor ranks every distinct
///   positive and negative text of the file by cosine similarity, its own positive the one relevant
///   (`InformationRetrievalEvaluator`): the share of anchors whose positive comes first (accuracy@1) and
///   the mean reciprocal rank of the positive within the first 10 (MRR@10, 0 below).
///
/// The pairs may have another shape than the training pairs (scored STS pairs are the usual check of a
/// ranking-loss run). Alone a report, not a choice: the run keeps its last epoch, unless
/// ``SentenceFineTuningOptions/keepBest`` names the score that picks it. It runs without dropout and
/// draws no random number, so a run takes the same steps with or without it.
///
///     let result = try tuner.train(pairs, validation: heldOut, output: url) { event in
///         if case .evaluated(let score) = event { print(score.spearman ?? score.accuracyAt1 ?? 0) }
///     }
public struct SentenceFineTuningEvaluation: Sendable, Equatable, Encodable, EpochValidation {
    /// The epoch just finished, from 1.
    public var epoch: Int
    /// Held-out pairs scored.
    public var pairs: Int
    /// Scored pairs: the correlations of cosine similarity with the scores (nil for anchor/positive pairs,
    /// or when the scores or the similarities are all equal).
    public var pearson: Double?
    public var spearman: Double?
    /// Anchor/positive pairs: share of anchors whose positive ranks first, and MRR@10.
    public var accuracyAt1: Double?
    public var mrrAt10: Double?
    /// With ``SentenceFineTuningOptions/keepBest``: whether this epoch's score is the best so far (its weights
    /// are kept); nil without it.
    public var isBest: Bool?

    /// The scores of the pairs whose unit-length (or not) embeddings are the rows of `embeddings`:
    /// for scored pairs, `[first texts; second texts]` with `scores`; for anchor/positive pairs,
    /// `[anchors; candidates]` with `relevant[i]`, the candidate row (0-based among the candidates) of
    /// anchor `i`'s positive.
    static func scored(_ embeddings: Tensor<Float>, scores: [Float], epoch: Int) -> SentenceFineTuningEvaluation {
        let pairs = scores.count
        let similarities = (0..<pairs).map { cosine(embeddings, $0, embeddings, pairs + $0) }
        let targets = scores.map(Double.init)
        return SentenceFineTuningEvaluation(epoch: epoch, pairs: pairs, pearson: pearson(similarities, targets),
                                            spearman: pearson(ranks(similarities), ranks(targets)))
    }

    static func ranked(_ anchors: Tensor<Float>, candidates: Tensor<Float>, relevant: [Int], epoch: Int) -> SentenceFineTuningEvaluation {
        var first = 0, reciprocal = 0.0
        for (anchor, positive) in relevant.enumerated() {
            let target = cosine(anchors, anchor, candidates, positive)
            // Candidates scoring above the positive come before it; ties count for it (as a stable sort of
            // equal scores may place it first).
            let rank = 1 + (0..<candidates.shape[0]).filter { $0 != positive && cosine(anchors, anchor, candidates, $0) > target }.count
            if rank == 1 { first += 1 }
            if rank <= 10 { reciprocal += 1 / Double(rank) }
        }
        let count = Double(max(1, relevant.count))
        return SentenceFineTuningEvaluation(epoch: epoch, pairs: relevant.count, accuracyAt1: Double(first) / count,
                                            mrrAt10: reciprocal / count)
    }

    /// Cosine similarity of row `i` of `a` and row `j` of `b`, in double precision.
    static func cosine(_ a: Tensor<Float>, _ i: Int, _ b: Tensor<Float>, _ j: Int) -> Double {
        let width = a.shape[1]
        var dot = 0.0, normA = 0.0, normB = 0.0
        a.scalars.withUnsafeBufferPointer { x in
            b.scalars.withUnsafeBufferPointer { y in
                for k in 0..<width {
                    let u = Double(x[i * width + k]), v = Double(y[j * width + k])
                    dot += u * v
                    normA += u * u
                    normB += v * v
                }
            }
        }
        let norms = (normA * normB).squareRoot()
        return norms > 0 ? dot / norms : 0
    }

    /// Pearson's correlation, nil when either side does not vary (or fewer than 2 values).
    static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        guard x.count == y.count, x.count >= 2 else { return nil }
        let n = Double(x.count), meanX = x.reduce(0, +) / n, meanY = y.reduce(0, +) / n
        var covariance = 0.0, varianceX = 0.0, varianceY = 0.0
        for (u, v) in zip(x, y) {
            covariance += (u - meanX) * (v - meanY)
            varianceX += (u - meanX) * (u - meanX)
            varianceY += (v - meanY) * (v - meanY)
        }
        guard varianceX > 0, varianceY > 0 else { return nil }
        return covariance / (varianceX * varianceY).squareRoot()
    }

    /// 1-based ranks, equal values sharing their mean rank.
    static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && values[order[end]] == values[order[start]] { end += 1 }
            let mean = Double(start + end + 1) / 2   // ranks start+1 ... end
            for position in start..<end { ranks[order[position]] = mean }
            start = end
        }
        return ranks
    }
}
