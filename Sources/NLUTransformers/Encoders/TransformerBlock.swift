import NLUCore

/// One post-layer-norm transformer block, the shape BERT, DistilBERT and MPNet share:
/// self-attention (MPNet: plus a relative position bias on the scores), residual + layer norm,
/// feed-forward, residual + layer norm.
///
/// The forward pass works on raw buffers of an ``EncoderWorkspace`` with weights packed at load:
/// one GEMM makes queries, keys and values side by side in a [rows, 3·hidden] matrix (queries
/// pre-scaled by 1/√d), ``Kernels/multiHeadAttention`` runs the heads on it, and each later GEMM
/// adds its bias, activation or residual in its epilogue, so the only passes between GEMMs are the
/// two layer norms.
package struct TransformerBlock: Sendable {
    /// Query, key and value projections stacked: [3·hidden, hidden].
    let queryKeyValue: LinearWeights
    let attentionOutput: LinearWeights
    let attentionNorm: NormWeights
    let intermediate: LinearWeights
    let output: LinearWeights
    let outputNorm: NormWeights
    /// The dense layers' precision, which attention's two products follow.
    let precision: Precision

    /// Runs the block on `workspace.hidden` in place for `batch.batchSize` sequences of
    /// `batch.sequenceLength` positions; `lengths[b]` is how many leading positions of sequence b
    /// are attended (padding after them is neither a query nor a key), and `keyMasks[b]`, when
    /// present, masks keys inside that prefix. `positionBias`, when present, is added to every
    /// head's scores before the mask.
    func callAsFunction(_ workspace: EncoderWorkspace, batch: EncoderBatch, lengths: [Int], keyMasks: [[Float]?],
                        positionBias: RelativePositionBias? = nil, configuration: BertConfiguration) {
        let rows = batch.batchSize * batch.sequenceLength
        let hiddenSize = configuration.hiddenSize
        let epsilon = configuration.layerNormEpsilon
        queryKeyValue.apply(workspace.hidden, rows: rows, into: workspace.queryKeyValue)
        Kernels.multiHeadAttention(queryKeyValue: workspace.queryKeyValue, rowStride: 3 * hiddenSize,
                                   sequenceLength: batch.sequenceLength, lengths: lengths, keyMasks: keyMasks,
                                   relativeBias: positionBias?.values,
                                   heads: configuration.attentionHeadCount, headSize: configuration.headSize,
                                   context: workspace.context, contextStride: hiddenSize, precision: precision)
        // hidden = LayerNorm(hidden + context · Wᵀ + b): the residual is the GEMM's accumulator.
        attentionOutput.apply(workspace.context, rows: rows, into: workspace.hidden, accumulate: true)
        attentionNorm.normalize(workspace.hidden, rowCount: rows, epsilon: epsilon)
        // hidden = LayerNorm(hidden + act(hidden · W₁ᵀ + b₁) · W₂ᵀ + b₂), a chunk of rows at a time.
        for first in stride(from: 0, to: rows, by: workspace.feedForwardRows) {
            let count = min(workspace.feedForwardRows, rows - first)
            let chunk = workspace.hidden + first * hiddenSize
            intermediate.apply(chunk, rows: count, into: workspace.intermediate, activation: configuration.activation.epilogue)
            output.apply(workspace.intermediate, rows: count, into: chunk, accumulate: true)
        }
        outputNorm.normalize(workspace.hidden, rowCount: rows, epsilon: epsilon)
    }

    /// Loads one block of a checkpoint using `names` (full tensor names) to spell its tensors, its
    /// dense layers at `precision`.
    init(_ tensors: CheckpointTensors, names: BlockTensorNames, configuration: BertConfiguration,
         precision: Precision = .f32) throws {
        let h = configuration.hiddenSize, i = configuration.intermediateSize
        let queryScale = 1 / Float(configuration.headSize).squareRoot()
        queryKeyValue = try LinearWeights(tensors, stacking: [names.query, names.key, names.value], output: h, input: h,
                                          scales: [queryScale, 1, 1], precision: precision)
        attentionOutput = try LinearWeights(tensors, names.attentionOutput, output: h, input: h, precision: precision)
        attentionNorm = try NormWeights(tensors, names.attentionNorm, size: h)
        intermediate = try LinearWeights(tensors, names.intermediate, output: i, input: h, precision: precision)
        output = try LinearWeights(tensors, names.output, output: h, input: i, precision: precision)
        outputNorm = try NormWeights(tensors, names.outputNorm, size: h)
        self.precision = precision
    }
}
