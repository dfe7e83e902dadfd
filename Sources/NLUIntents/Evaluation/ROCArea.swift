/// The area under the receiver operating characteristic curve (ROC AUC): the probability that a
/// randomly drawn positive scores above a randomly drawn negative, ties counting one half, as
/// scikit-learn's `roc_auc_score` computes it (checked against it: `scripts/fixtures/intent_calibration.py`).
/// An evaluation uses it for out-of-scope detection: positives are the out-of-scope utterances, the
/// score how far the model is from answering (1 − confidence).
///
///     ROCArea.value(labels: [false, false, true], scores: [0.1, 0.4, 0.35])   // 0.5
public enum ROCArea {
    /// The ROC AUC of `scores` for `labels` (true: positive); nil when either class is missing (the
    /// curve is undefined) or the counts differ.
    public static func value(labels: [Bool], scores: [Double]) -> Double? {
        guard labels.count == scores.count else { return nil }
        let positives = labels.filter { $0 }.count, negatives = labels.count - positives
        guard positives > 0, negatives > 0 else { return nil }
        // Mann–Whitney: the positives' mean rank, tied scores sharing the mean of their ranks.
        let order = scores.indices.sorted { scores[$0] < scores[$1] }
        var rankSum = 0.0
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, scores[order[end]] == scores[order[start]] { end += 1 }
            let meanRank = Double(start + 1 + end) / 2
            for index in order[start..<end] where labels[index] { rankSum += meanRank }
            start = end
        }
        let p = Double(positives), n = Double(negatives)
        return (rankSum - p * (p + 1) / 2) / (p * n)
    }
}
