/// Hybrid search's fusion, shared by every backend: the keyword and vector rankings (each already
/// cut at `options.fusion.candidateDepth`), combined by `options.fusion.function` with its weights,
/// the best `options.k`, each carrying its fused score. Equal scores go to the smaller key.
public enum HybridFusion {
    public static func fuse<Result>(keyword: [Result], vector: [Result], options: SearchOptions,
                                    key: (Result) -> ChunkKey, score: (Result) -> Double,
                                    rescored: (Result, Double) -> Result) -> [Result] {
        var byKey: [ChunkKey: Result] = [:]
        for result in keyword + vector where byKey[key(result)] == nil { byKey[key(result)] = result }
        let fusion = options.fusion
        let fused: [(item: ChunkKey, score: Double)]
        switch fusion.function {
        case .rrf:
            fused = ReciprocalRankFusion.fuse([(fusion.keywordWeight, keyword.map(key)), (fusion.vectorWeight, vector.map(key))],
                                              k: fusion.k)
        case .convex:
            fused = ConvexScoreFusion.fuse([(fusion.keywordWeight, keyword.map { (key($0), score($0)) }),
                                            (fusion.vectorWeight, vector.map { (key($0), score($0)) })])
        }
        return fused.prefix(options.k).compactMap { item in byKey[item.item].map { rescored($0, item.score) } }
    }
}
