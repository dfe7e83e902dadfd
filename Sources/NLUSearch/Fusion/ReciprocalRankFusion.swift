/// Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): an item's fused score is
/// Σ weightᵢ / (k + rankᵢ) over the rankings that hold it, ranks counted from 1. It needs no
/// calibration between the rankings' scores (BM25's and cosine's scales differ), only their order.
///
///     let fused = ReciprocalRankFusion.fuse([(1, ["a", "b"]), (1, ["b", "c"])], k: 60)
///     // b: 1/62 + 1/61, a: 1/61, c: 1/62  →  b, a, c
public enum ReciprocalRankFusion {
    /// The items of all rankings by fused score, best first; equal scores go to the smaller item.
    public static func fuse<Item: Hashable & Comparable>(_ rankings: [(weight: Double, items: [Item])],
                                                          k: Double) -> [(item: Item, score: Double)] {
        var scores: [Item: Double] = [:]
        for ranking in rankings where ranking.weight != 0 {
            for (index, item) in ranking.items.enumerated() {
                scores[item, default: 0] += ranking.weight / (k + Double(index + 1))
            }
        }
        return scores.map { (item: $0.key, score: $0.value) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.item < $1.item }
    }
}
