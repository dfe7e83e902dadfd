/// Convex combination of normalised scores (Bruch, Gai & Ingber 2023, "An Analysis of Fusion
/// Functions for Hybrid Retrieval"): an item's fused score is Σ wᵢ · normᵢ(scoreᵢ) over the
/// rankings, each ranking's scores min-max normalised over its own candidates ((s − min) / (max − min),
/// 1 when all are equal), and an item a ranking does not hold scoring that ranking's floor, 0.
/// A ranking of weight 0 is left out, as in ``ReciprocalRankFusion``.
///
/// Unlike reciprocal-rank fusion it keeps how far apart the scores are, not only their order: a
/// keyword match whose BM25 stands far above the rest keeps its lead, where RRF gives the first
/// rank the same credit whatever the gap behind it.
///
///     let fused = ConvexScoreFusion.fuse([(0.7, [("a", 12), ("b", 3), ("c", 2)]), (0.3, [("b", 0.9), ("d", 0.5)])])
///     // a: 0.7·1 = 0.7, b: 0.7·0.1 + 0.3·1 = 0.37, d: 0.3·0 = 0, c: 0  →  a, b, c, d
public enum ConvexScoreFusion {
    /// The items of all rankings by fused score, best first; equal scores go to the smaller item.
    /// An item listed twice in one ranking counts once there, with its best score.
    public static func fuse<Item: Hashable & Comparable>(_ rankings: [(weight: Double, items: [(item: Item, score: Double)])])
        -> [(item: Item, score: Double)] {
        var fused: [Item: Double] = [:]
        for ranking in rankings where ranking.weight != 0 {
            var best: [Item: Double] = [:]
            for entry in ranking.items where entry.score.isFinite { best[entry.item] = max(best[entry.item] ?? -.infinity, entry.score) }
            let low = best.values.min() ?? 0, high = best.values.max() ?? 0
            for (item, score) in best {
                let normalised = high > low ? (score - low) / (high - low) : 1
                fused[item, default: 0] += ranking.weight * normalised
            }
        }
        return fused.map { (item: $0.key, score: $0.value) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.item < $1.item }
    }
}
