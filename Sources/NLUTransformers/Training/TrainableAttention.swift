import Foundation
import NLUCore

/// Multi-head scaled dot-product attention for training, head by head over the row-major
/// `[rows, hidden]` queries, keys and values of one block: `softmax(Q·Kᵀ/√d + bias + mask)·V`,
/// keeping the probabilities for the backward pass. The heads run side by side on the kernel pool,
/// each product on its head's thread (``TrainingProducts/multiplyOnThisThread(_:_:m:n:k:alpha:a:lda:b:ldb:c:ldc:panels:transposed:)``,
/// as inference's attention runs them): a `length × length × headSize` product is too small to split,
/// and its operands are read in place from a head's strided columns (leading dimension `hidden`).
///
/// Each sequence attends over its computed positions (``EncoderTrainingWorkspace/computedLengths``;
/// a `length × length` block of its `sequenceLength²` probability slot). Masked keys (attention mask
/// 0) get probability 0, as `transformers`' additive `finfo.min` mask gives them; computed padding
/// positions are queries like any other, so their outputs match `transformers` too. A sequence with
/// every computed key masked attends uniformly, as the additive mask makes it.
///
///     TrainableAttention.forward(layer, workspace: workspace, mask: batch.attentionMask, heads: 4,
///                                headSize: 8, biased: false, dropout: 0, generator: &generator)
enum TrainableAttention {
    /// Fills `layer.probabilities` and `layer.context` from `layer.query`, `.key`, `.value`; with
    /// `biased`, adds `workspace.positionBias` to the scores; with `dropout` > 0, draws
    /// `layer.probabilityMask` and multiplies the probabilities by it before the values.
    static func forward(_ layer: EncoderTrainingWorkspace.Layer, workspace: EncoderTrainingWorkspace, mask: [Int32],
                        heads: Int, headSize: Int, biased: Bool, dropout: Float, generator: inout SplitMix64) {
        let capacity = workspace.sequenceLength, hidden = heads * headSize, square = capacity * capacity
        let scale = 1 / Float(headSize).squareRoot()
        let span = 2 * capacity - 1
        if dropout > 0 {
            // Every head's mask in one call, in the order the heads use them (the draws a mask per
            // head gave; one long mask is drawn in parallel).
            Dropout.fillMask(UnsafeMutableBufferPointer(start: layer.probabilityMask, count: workspace.batchSize * heads * square),
                             probability: dropout, generator: &generator)
        }
        // Each head writes only its own probabilities, context columns and scratch slots, and runs its
        // sequences in order, so the result does not depend on which thread ran it.
        forEachHead(heads) { head in
            let scratch = workspace.headScratch + head * square
            let panels = workspace.headPanels + head * workspace.headPanelStride
            let transposed = workspace.headTransposed + head * square
            for sequence in 0..<workspace.batchSize {
                // The sequence's computed positions 0 ..< length, stored from row `sequenceOffsets[sequence]`.
                let length = workspace.computedLengths[sequence], base = workspace.sequenceOffsets[sequence] * hidden
                let keyMask = mask[(sequence * capacity)..<(sequence * capacity + length)]
                let anyKey = keyMask.contains { $0 != 0 }
                let scores = layer.probabilities + (sequence * heads + head) * square
                let column = base + head * headSize
                TrainingProducts.multiplyOnThisThread(.none, .transpose, m: length, n: length, k: headSize, alpha: scale,
                                                      a: layer.query + column, lda: hidden, b: layer.key + column, ldb: hidden,
                                                      c: scores, ldc: length, panels: panels, transposed: transposed)
                let bias = workspace.positionBias + head * span
                for query in 0..<length {
                    let row = scores + query * length
                    if biased {
                        for key in 0..<length { row[key] += bias[key - query + capacity - 1] }
                    }
                    softmax(row, length: length, keyMask: keyMask, anyKey: anyKey)
                }
                var weights = UnsafePointer(scores)
                if dropout > 0 {
                    let dropMask = layer.probabilityMask + (sequence * heads + head) * square
                    for index in 0..<(length * length) { scratch[index] = scores[index] * dropMask[index] }
                    weights = UnsafePointer(scratch)
                }
                TrainingProducts.multiplyOnThisThread(.none, .none, m: length, n: headSize, k: length, a: weights, lda: length,
                                                      b: layer.value + column, ldb: hidden, c: layer.context + column,
                                                      ldc: hidden, panels: panels, transposed: transposed)
            }
        }
    }

    /// Runs `body` for every head: on the kernel pool, or in order on the calling thread under
    /// `NLUKIT_TRAINING_GEMM=blas` (``TrainingProducts/usesBLAS``), where each head's products are
    /// `sgemm` calls as before the pool ran them.
    private static func forEachHead(_ heads: Int, _ body: (Int) -> Void) {
        if TrainingProducts.usesBLAS {
            for head in 0..<heads { body(head) }
        } else {
            Kernels.parallelFor(heads, body)
        }
    }

    /// One query's scores turned into probabilities in place, masked keys at 0.
    private static func softmax(_ row: UnsafeMutablePointer<Float>, length: Int, keyMask: ArraySlice<Int32>, anyKey: Bool) {
        let first = keyMask.startIndex
        func attended(_ key: Int) -> Bool { !anyKey || keyMask[first + key] != 0 }
        var maximum = -Float.infinity
        for key in 0..<length where attended(key) { maximum = max(maximum, row[key]) }
        var sum: Double = 0
        for key in 0..<length {
            let value = attended(key) ? exp(row[key] - maximum) : 0
            row[key] = value
            sum += Double(value)
        }
        let inverse = Float(1 / sum)
        for key in 0..<length { row[key] *= inverse }
    }

    /// From `workspace.gradientContext` (d(context), [rows, hidden]) writes d(query), d(key),
    /// d(value) into `workspace.gradientQuery`, `.gradientKey`, `.gradientValue`; with `biasGradient`
    /// (MPNet's `[buckets, heads]` table gradient) adds each score's gradient to its distance's bucket.
    static func backward(_ layer: EncoderTrainingWorkspace.Layer, workspace: EncoderTrainingWorkspace, heads: Int,
                         headSize: Int, dropout: Bool, biasGradient: UnsafeMutablePointer<Float>?) {
        let capacity = workspace.sequenceLength, hidden = heads * headSize, square = capacity * capacity
        let scale = 1 / Float(headSize).squareRoot()
        // Side by side as the forward pass: a head writes its own columns of d(Q), d(K), d(V), its own
        // scratch slots and (MPNet) its own column of the bias table's gradient, adding its sequences in order.
        forEachHead(heads) { head in
            let gradientScores = workspace.headScores + head * square, scratch = workspace.headScratch + head * square
            let panels = workspace.headPanels + head * workspace.headPanelStride
            let transposed = workspace.headTransposed + head * square
            for sequence in 0..<workspace.batchSize {
                let length = workspace.computedLengths[sequence], base = workspace.sequenceOffsets[sequence] * hidden
                let probabilities = layer.probabilities + (sequence * heads + head) * square
                let dropMask = layer.probabilityMask + (sequence * heads + head) * square
                let column = base + head * headSize
                let gradientContext = workspace.gradientContext + column
                // d(weights) = d(context)·Vᵀ, with weights the (dropped) probabilities.
                TrainingProducts.multiplyOnThisThread(.none, .transpose, m: length, n: length, k: headSize, a: gradientContext,
                                                      lda: hidden, b: layer.value + column, ldb: hidden, c: gradientScores,
                                                      ldc: length, panels: panels, transposed: transposed)
                var weights = UnsafePointer(probabilities)
                if dropout {
                    for index in 0..<(length * length) {
                        scratch[index] = probabilities[index] * dropMask[index]
                        gradientScores[index] *= dropMask[index]
                    }
                    weights = UnsafePointer(scratch)
                }
                // d(V) = weightsᵀ·d(context).
                TrainingProducts.multiplyOnThisThread(.transpose, .none, m: length, n: headSize, k: length, a: weights,
                                                      lda: length, b: gradientContext, ldb: hidden,
                                                      c: workspace.gradientValue + column, ldc: hidden, panels: panels,
                                                      transposed: transposed)
                // Softmax: d(score) = p ∘ (d(p) - Σ p ∘ d(p)) per query.
                for query in 0..<length {
                    let p = probabilities + query * length, g = gradientScores + query * length
                    var dot: Double = 0
                    for key in 0..<length { dot += Double(p[key]) * Double(g[key]) }
                    for key in 0..<length { g[key] = Float(Double(p[key]) * (Double(g[key]) - dot)) }
                }
                if let biasGradient {
                    for query in 0..<length {
                        let g = gradientScores + query * length
                        for key in 0..<length {
                            biasGradient[workspace.distanceBuckets[key - query + capacity - 1] * heads + head] += g[key]
                        }
                    }
                }
                // Scores = Q·Kᵀ/√d: d(Q) = d(scores)·K/√d, d(K) = d(scores)ᵀ·Q/√d.
                TrainingProducts.multiplyOnThisThread(.none, .none, m: length, n: headSize, k: length, alpha: scale,
                                                      a: gradientScores, lda: length, b: layer.key + column, ldb: hidden,
                                                      c: workspace.gradientQuery + column, ldc: hidden, panels: panels,
                                                      transposed: transposed)
                TrainingProducts.multiplyOnThisThread(.transpose, .none, m: length, n: headSize, k: length, alpha: scale,
                                                      a: gradientScores, lda: length, b: layer.query + column, ldb: hidden,
                                                      c: workspace.gradientKey + column, ldc: hidden, panels: panels,
                                                      transposed: transposed)
            }
        }
    }
}
