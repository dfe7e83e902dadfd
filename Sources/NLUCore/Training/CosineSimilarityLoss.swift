/// sentence-transformers' `CosineSimilarityLoss` (5.1.2) with its gradients: the mean squared error
/// between `cos(u[i], v[i])` and `labels[i]` (the pair's gold similarity, e.g. an STS score scaled to
/// 0...1). The cosine is `torch.cosine_similarity`'s: each vector divided by max(‖vector‖, 1e-8).
///
///     let (loss, gradients) = CosineSimilarityLoss().lossAndGradients(embeddings: [u, v], labels: [1, 0.2])
///     // gradients[0]: d(loss)/d(u), gradients[1]: d(loss)/d(v)
public struct CosineSimilarityLoss: Sendable, Equatable {
    /// The loss as sentence-transformers builds it by default (MSE, no transformation of the cosine).
    public init() {}

    /// The cosine similarity of each pair of rows of `u` and `v` (`[pairs, dimension]`).
    public func similarities(_ u: Tensor<Float>, _ v: Tensor<Float>) -> [Float] {
        precondition(u.rank == 2 && u.shape == v.shape, "CosineSimilarityLoss: pairs of shapes \(u.shape) and \(v.shape)")
        return Self.rowDots(Self.normalization(u), Self.normalization(v))
    }

    /// The loss and its gradients with respect to `embeddings` (`[u, v]`, each `[pairs, dimension]`),
    /// for one label per pair.
    public func lossAndGradients(embeddings: [Tensor<Float>], labels: [Float]) -> (loss: Float, gradients: [Tensor<Float>]) {
        precondition(embeddings.count == 2 && embeddings[0].rank == 2 && embeddings[0].shape == embeddings[1].shape,
                     "CosineSimilarityLoss: columns of shapes \(embeddings.map(\.shape)); two of one [pairs, dimension] are needed")
        let (u, v) = (embeddings[0], embeddings[1])
        let (pairs, dimension) = (u.shape[0], u.shape[1])
        precondition(labels.count == pairs, "CosineSimilarityLoss: \(labels.count) labels for \(pairs) pairs")
        guard pairs > 0 else { return (0, [Tensor(shape: u.shape), Tensor(shape: v.shape)]) }
        let unitU = Self.normalization(u), unitV = Self.normalization(v)
        let cosines = Self.rowDots(unitU, unitV)
        let errors = zip(cosines, labels).map { $0 - $1 }
        let loss = errors.reduce(0) { $0 + $1 * $1 } / Float(pairs)

        // d(loss)/d(cos i) = 2 (cos i - label i) / pairs; cos = û·v̂ sends it to û along v̂ and to v̂ along û.
        var dUnitU = unitV.contiguous().reshaped(u.shape), dUnitV = unitU.contiguous().reshaped(v.shape)
        dUnitU.withUnsafeMutableBufferPointer { dU in
            dUnitV.withUnsafeMutableBufferPointer { dV in
                for pair in 0..<pairs {
                    let factor = 2 * errors[pair] / Float(pairs)
                    for c in (pair * dimension)..<((pair + 1) * dimension) {
                        dU[c] *= factor
                        dV[c] *= factor
                    }
                }
            }
        }
        return (loss, [Self.normalization.backward(outputGradient: dUnitU, input: u),
                       Self.normalization.backward(outputGradient: dUnitV, input: v)])
    }

    /// `torch.cosine_similarity`'s floor on each norm.
    private static let normalization = L2Normalization(epsilon: 1e-8)

    /// Σ a[i]·b[i] for each row of two `[rows, dimension]` tensors.
    private static func rowDots(_ a: Tensor<Float>, _ b: Tensor<Float>) -> [Float] {
        let (rows, dimension) = (a.shape[0], a.shape[1])
        let a = a.scalars, b = b.scalars
        return (0..<rows).map { row in
            (0..<dimension).reduce(Float(0)) { $0 + a[row * dimension + $1] * b[row * dimension + $1] }
        }
    }
}
