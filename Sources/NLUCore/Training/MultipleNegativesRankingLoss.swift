/// sentence-transformers' `MultipleNegativesRankingLoss` (5.1.2; also called InfoNCE or in-batch
/// negatives loss) with its gradients: anchor `i` should be closer to positive `i` than to every other
/// positive and hard negative in the batch. Scores are cosine similarities × `scale`
/// (`util.cos_sim`: each row divided by max(‖row‖, 1e-12)) between the anchors and all candidates
/// (the positives, then each hard-negative column), and the loss is the mean cross-entropy with anchor
/// `i`'s label at candidate `i`.
///
///     let loss = MultipleNegativesRankingLoss()   // scale 20
///     let (value, gradients) = loss.lossAndGradients(embeddings: [anchors, positives, hardNegatives])
///     // gradients[0]: d(loss)/d(anchors), gradients[1]: d/d(positives), gradients[2]: d/d(hardNegatives)
public struct MultipleNegativesRankingLoss: Sendable, Equatable {
    /// The factor on the cosine similarities (the inverse of a temperature: 20 is 0.05).
    public var scale: Float

    /// The loss with sentence-transformers' default scale of 20.
    public init(scale: Float = 20) {
        self.scale = scale
    }

    /// The loss and its gradient with respect to each embedding column. `embeddings` are the columns as
    /// sentence-transformers passes them: anchors `[batch, dimension]`, positives of the same shape, then
    /// any number of hard-negative columns of the same shape. The gradients align with `embeddings`.
    public func lossAndGradients(embeddings: [Tensor<Float>]) -> (loss: Float, gradients: [Tensor<Float>]) {
        precondition(embeddings.count >= 2, "MultipleNegativesRankingLoss: \(embeddings.count) embedding columns; anchors and positives are needed")
        let shape = embeddings[0].shape
        precondition(shape.count == 2 && embeddings.allSatisfy { $0.shape == shape },
                     "MultipleNegativesRankingLoss: columns of shapes \(embeddings.map(\.shape)); all must be one [batch, dimension]")
        let (batch, dimension) = (shape[0], shape[1])
        let candidateCount = batch * (embeddings.count - 1)
        let anchors = embeddings[0]
        let candidates = Tensor(shape: [candidateCount, dimension], scalars: embeddings.dropFirst().flatMap(\.scalars))
        let normalization = L2Normalization()
        let unitAnchors = normalization(anchors), unitCandidates = normalization(candidates)

        // scores = unitAnchors · unitCandidatesᵀ × scale: a bias-free linear layer whose weight is the candidates.
        let scale = scale
        var scores = Tensor<Float>(shape: [batch, candidateCount])
        unitAnchors.withUnsafeBufferPointer { a in
            unitCandidates.withUnsafeBufferPointer { c in
                scores.withUnsafeMutableBufferPointer { scores in
                    guard let a = a.baseAddress, let c = c.baseAddress, let s = scores.baseAddress else { return }
                    Linear.forward(a, rows: batch, weight: c, bias: nil, inputSize: dimension, outputSize: candidateCount, into: s)
                    for i in scores.indices { scores[i] *= scale }
                }
            }
        }
        let (loss, scoreGradient) = SoftmaxCrossEntropy.lossAndGradient(logits: scores, targets: (0..<batch).map { Int32($0) })
        var dScores = scoreGradient
        dScores.withUnsafeMutableBufferPointer { d in for i in d.indices { d[i] *= scale } }

        var dUnitAnchors = Tensor<Float>(shape: anchors.shape), dUnitCandidates = Tensor<Float>(shape: candidates.shape)
        dScores.withUnsafeBufferPointer { dS in
            unitAnchors.withUnsafeBufferPointer { a in
                unitCandidates.withUnsafeBufferPointer { c in
                    dUnitAnchors.withUnsafeMutableBufferPointer { dA in
                        dUnitCandidates.withUnsafeMutableBufferPointer { dC in
                            guard let dS = dS.baseAddress, let a = a.baseAddress, let c = c.baseAddress,
                                  let dA = dA.baseAddress, let dC = dC.baseAddress else { return }
                            Linear.backward(outputGradient: dS, input: a, rows: batch, weight: c, inputSize: dimension,
                                            outputSize: candidateCount, weightGradient: dC, biasGradient: nil, inputGradient: dA)
                        }
                    }
                }
            }
        }
        let dCandidates = normalization.backward(outputGradient: dUnitCandidates, input: candidates).scalars
        let columnSize = batch * dimension
        let candidateGradients = (0..<(embeddings.count - 1)).map { column in
            Tensor(shape: shape, scalars: Array(dCandidates[(column * columnSize)..<((column + 1) * columnSize)]))
        }
        return (loss, [normalization.backward(outputGradient: dUnitAnchors, input: anchors)] + candidateGradients)
    }
}
