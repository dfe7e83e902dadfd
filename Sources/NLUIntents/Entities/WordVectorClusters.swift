import NLUCore

/// The encoder's contextual word vectors as discrete slot-tagger features: k-means clusters of the
/// training words' vectors at several granularities, and for each token the attributes
/// `e<k>=<cluster>` of its own vector and `e<k>[-1]=…`, `e<k>[+1]=…` of its neighbours' — as Snips NLU
/// used Brown clusters of words, but from vectors that see the whole utterance ("Paris" in "fly to
/// Paris" and in "Paris Hilton songs" fall into different clusters).
///
/// Clusters rather than the raw values as real-valued attributes: a linear CRF draws little from
/// dense vector components, whose meaning is not linear in each one, while cluster identities of
/// several granularities did better as CRF features (Guo et al., EMNLP 2014, "Revisiting Embedding
/// Features for Simple Semi-supervised Learning"); they also keep the CRF, its training and its
/// crfsuite parity unchanged (binary attributes), and tagging cheap.
///
///     let clusters = WordVectorClusters.fit(vectors, dimension: 384, sizes: [64, 256, 1024], seed: 1)
///     clusters.attributes(vectorsOfOneUtterance)   // [["e64=12", "e256=80", "e1024=311", "e64[+1]=3", …], …]
public struct WordVectorClusters: Sendable {
    /// The values per vector.
    public let dimension: Int
    /// Per granularity: the number of clusters and their centroids (`k × dimension`, row-major).
    public let centroids: [(k: Int, values: [Float])]

    /// Clusters of `vectors` (all of ``dimension`` values) at each size in `sizes` that is at most
    /// `vectors.count / 8` (fewer vectors give clusters of a handful of words: no generalization);
    /// k-means on at most `sampleLimit` vectors drawn with `seed`, for a bounded training time.
    static func fit(_ vectors: [[Float]], dimension: Int, sizes: [Int], sampleLimit: Int = 40_000, seed: UInt64) -> WordVectorClusters {
        var generator = SplitMix64(seed: seed)
        var order = Array(vectors.indices)
        let sampleCount = min(sampleLimit, order.count)
        for i in 0..<sampleCount { order.swapAt(i, i + Int(generator.next() % UInt64(order.count - i))) }
        var sample = [Float]()
        sample.reserveCapacity(sampleCount * dimension)
        for index in order.prefix(sampleCount) { sample += vectors[index] }
        let usable = sizes.filter { $0 >= 2 && $0 <= vectors.count / 8 }
        let centroids = usable.map { k in
            (k: k, values: KMeans.fit(rows: sample, count: sampleCount, dimension: dimension, k: k, seed: seed ^ UInt64(k)))
        }
        return WordVectorClusters(dimension: dimension, centroids: centroids)
    }

    /// The centroids' norms and packed transpose, per granularity, made once rather than per utterance.
    private let packed: [KMeans.Centroids]

    init(dimension: Int, centroids: [(k: Int, values: [Float])]) {
        self.dimension = dimension
        self.centroids = centroids
        packed = centroids.map { KMeans.Centroids($0.values, dimension: dimension) }
    }

    /// The cluster attributes of each token of one sequence, from its word vectors in order.
    func attributes(_ vectors: [[Float]]) -> [[String]] {
        let count = vectors.count
        guard count > 0 else { return [] }
        var rows = [Float]()
        rows.reserveCapacity(count * dimension)
        for vector in vectors { rows += vector }
        var result = [[String]](repeating: [], count: count)
        for ((k, values), packed) in zip(centroids, packed) {
            let nearest = KMeans.assign(rows: rows, count: count, centroids: values, dimension: dimension, packed: packed)
            for t in 0..<count {
                result[t].append("e\(k)=\(nearest[t])")
                if t > 0 { result[t].append("e\(k)[-1]=\(nearest[t - 1])") }
                if t + 1 < count { result[t].append("e\(k)[+1]=\(nearest[t + 1])") }
            }
        }
        return result
    }

    // MARK: Storage

    /// The tensor of the centroids of `k` clusters.
    static func tensorName(_ k: Int) -> String { "tagger.word_clusters.\(k)" }

    var namedWeights: [String: Tensor<Float>] {
        Dictionary(uniqueKeysWithValues: centroids.map { (Self.tensorName($0.k), Tensor(shape: [$0.k, dimension], scalars: $0.values)) })
    }

    /// Rebuilds the clusters of `sizes` from their tensors, checking every shape and value.
    static func load(sizes: [Int], dimension: Int, tensor: (String) throws -> Tensor<Float>) throws -> WordVectorClusters {
        guard (1...65_536).contains(dimension) else {
            throw EntityTaggerError.invalidModel("word vector dimension must be 1 to 65536, got \(dimension)")
        }
        guard sizes.count <= 16, sizes.allSatisfy({ (2...65_536).contains($0) }), Set(sizes).count == sizes.count else {
            throw EntityTaggerError.invalidModel("word cluster sizes must be at most 16 distinct numbers from 2 to 65536, got \(sizes)")
        }
        let centroids = try sizes.map { k in
            let stored = try tensor(tensorName(k))
            guard stored.shape == [k, dimension], stored.scalars.allSatisfy(\.isFinite) else {
                throw EntityTaggerError.invalidModel("tensor '\(tensorName(k))' must be \(k) × \(dimension) finite values, got shape \(stored.shape)")
            }
            return (k: k, values: stored.scalars)
        }
        return WordVectorClusters(dimension: dimension, centroids: centroids)
    }
}
