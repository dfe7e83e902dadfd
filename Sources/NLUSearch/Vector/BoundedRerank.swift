/// The exact top k from approximate scores that each come with a bound on their error.
///
/// If every row's exact score s lies in [s̃ − e, s̃ + e], let L be the k-th largest lower bound
/// s̃ − e. At least k rows have s ≥ L, so the k-th best exact score is ≥ L, and every row of the
/// exact top k (ties included) has s̃ + e ≥ s ≥ L. Scoring exactly only the rows with s̃ + e ≥ L
/// and picking their best k (ties to the lower row) therefore gives what scoring every row exactly
/// gives. How many rows that is depends on the bounds and on how crowded the scores are near the
/// k-th; it is never wrong, only slower, when the bounds are loose.
enum BoundedRerank {
    /// The best `k` rows by `exactScore`, given approximate `scores` and error `bounds` for every
    /// row; only rows where `isAllowed` is true, when given.
    static func top(_ k: Int, scores: [Float], bounds: [Float], where isAllowed: ((Int) -> Bool)?,
                    exactScore: (Int) -> Double) -> [TopK.Entry] {
        precondition(scores.count == bounds.count, "BoundedRerank: a bound per score")
        guard k > 0, !scores.isEmpty else { return [] }
        var lower = [Float](repeating: 0, count: scores.count)
        for row in scores.indices { lower[row] = (scores[row] - bounds[row]).nextDown }
        let kept = lower.withUnsafeBufferPointer { TopK.select(k, from: $0, where: isAllowed) }
        // Fewer than k allowed rows: all of them are the answer.
        let threshold = kept.count < k ? -Float.infinity : kept[kept.count - 1].score
        var candidates: [(row: Int, score: Double)] = []
        for row in scores.indices where (scores[row] + bounds[row]).nextUp >= threshold {
            if let isAllowed, !isAllowed(row) { continue }
            candidates.append((row, exactScore(row)))
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
        return candidates.prefix(k).map { TopK.Entry(row: $0.row, score: Float($0.score)) }
    }
}
