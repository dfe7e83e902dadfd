import NLUCore

/// One post-layer-norm transformer block, the shape BERT and DistilBERT share:
/// self-attention, residual + layer norm, feed-forward, residual + layer norm.
///
/// The forward pass works on raw buffers of an ``EncoderWorkspace``: Q, K and V land side by side
/// in one [rows, 3·hidden] matrix, each head's attention is two strided GEMMs straight on it (no
/// copies per head), and the bias/activation/residual/norm steps are fused loops.
struct TransformerBlock: Sendable {
    let query: LinearWeights
    let key: LinearWeights
    let value: LinearWeights
    let attentionOutput: LinearWeights
    let attentionNorm: NormWeights
    let intermediate: LinearWeights
    let output: LinearWeights
    let outputNorm: NormWeights

    /// Runs the block on `workspace.hidden` in place for `batch.batchSize` sequences of
    /// `batch.sequenceLength` positions; `lengths[b]` is how many leading positions of sequence b
    /// are attended (padding after them is neither a query nor a key).
    func callAsFunction(_ workspace: EncoderWorkspace, batch: EncoderBatch, lengths: [Int], keyMasks: [Bool],
                        configuration: BertConfiguration, threads: Int) {
        let rows = batch.batchSize * batch.sequenceLength
        let hiddenSize = configuration.hiddenSize
        let qkvStride = 3 * hiddenSize
        let qkv = workspace.queryKeyValue
        query.multiply(workspace.hidden, rows: rows, into: qkv, ldc: qkvStride)
        key.multiply(workspace.hidden, rows: rows, into: qkv + hiddenSize, ldc: qkvStride)
        value.multiply(workspace.hidden, rows: rows, into: qkv + 2 * hiddenSize, ldc: qkvStride)
        addQKVBias(qkv, rows: rows, hiddenSize: hiddenSize, threads: threads)

        attention(workspace, batch: batch, lengths: lengths, keyMasks: keyMasks, configuration: configuration, threads: threads)

        attentionOutput.multiply(workspace.context, rows: rows, into: workspace.projection)
        FusedKernels.addBiasResidualLayerNorm(
            projection: workspace.projection, bias: attentionOutput.bias.elementPointer, residual: workspace.hidden,
            rows: rows, columns: hiddenSize, gamma: attentionNorm.gamma.elementPointer,
            beta: attentionNorm.beta.elementPointer, epsilon: configuration.layerNormEpsilon, threads: threads)

        intermediate.multiply(workspace.hidden, rows: rows, into: workspace.intermediate)
        FusedKernels.addBiasActivate(workspace.intermediate, rows: rows, columns: intermediate.outputSize,
                                     bias: intermediate.bias.elementPointer, activation: configuration.activation,
                                     threads: threads)
        output.multiply(workspace.intermediate, rows: rows, into: workspace.projection)
        FusedKernels.addBiasResidualLayerNorm(
            projection: workspace.projection, bias: output.bias.elementPointer, residual: workspace.hidden,
            rows: rows, columns: hiddenSize, gamma: outputNorm.gamma.elementPointer,
            beta: outputNorm.beta.elementPointer, epsilon: configuration.layerNormEpsilon, threads: threads)
    }

    private func addQKVBias(_ qkv: UnsafeMutablePointer<Float>, rows: Int, hiddenSize: Int, threads: Int) {
        let biases = [query.bias.elementPointer, key.bias.elementPointer, value.bias.elementPointer]
        FusedKernels.parallelRows(rows, threads: threads) { range in
            for row in range {
                for part in 0..<3 {
                    let line = qkv + row * 3 * hiddenSize + part * hiddenSize
                    let bias = biases[part]
                    for c in 0..<hiddenSize { line[c] += bias[c] }
                }
            }
        }
    }

    /// Scaled dot-product attention per sequence and head, written into `workspace.context`.
    private func attention(_ workspace: EncoderWorkspace, batch: EncoderBatch, lengths: [Int], keyMasks: [Bool],
                           configuration: BertConfiguration, threads: Int) {
        let hiddenSize = configuration.hiddenSize
        let headSize = configuration.headSize
        let qkvStride = 3 * hiddenSize
        let scale = 1 / Float(headSize).squareRoot()
        let scores = workspace.scores
        batch.attentionMask.withUnsafeBufferPointer { mask in
            for sequence in 0..<batch.batchSize {
                let length = lengths[sequence]
                let firstRow = sequence * batch.sequenceLength
                guard length > 0 else { continue }
                let keyMask = keyMasks[sequence] ? mask.baseAddress.map { $0 + firstRow } : nil
                let base = workspace.queryKeyValue + firstRow * qkvStride
                for head in 0..<configuration.attentionHeadCount {
                    let queries = base + head * headSize
                    let keys = base + hiddenSize + head * headSize
                    let values = base + 2 * hiddenSize + head * headSize
                    // scores = (Q_h · K_hᵀ) / √d over the attended positions only.
                    BLAS.sgemm(.none, .transpose, m: length, n: length, k: headSize, alpha: scale,
                               a: queries, lda: qkvStride, b: keys, ldb: qkvStride, c: scores, ldc: length)
                    FusedKernels.softmaxRows(scores, rows: length, keys: length, rowStride: length,
                                             keyMask: keyMask, threads: threads)
                    // context_h = P · V_h, written into the head's column block.
                    BLAS.sgemm(.none, .none, m: length, n: headSize, k: length,
                               a: scores, lda: length, b: values, ldb: qkvStride,
                               c: workspace.context + firstRow * hiddenSize + head * headSize, ldc: hiddenSize)
                }
            }
        }
    }

    /// Loads block `index` of a checkpoint using `names` to spell its tensors.
    init(_ tensors: CheckpointTensors, names: BlockTensorNames, configuration: BertConfiguration) throws {
        let h = configuration.hiddenSize, i = configuration.intermediateSize
        query = try LinearWeights(tensors, names.query, output: h, input: h)
        key = try LinearWeights(tensors, names.key, output: h, input: h)
        value = try LinearWeights(tensors, names.value, output: h, input: h)
        attentionOutput = try LinearWeights(tensors, names.attentionOutput, output: h, input: h)
        attentionNorm = try NormWeights(tensors, names.attentionNorm, size: h)
        intermediate = try LinearWeights(tensors, names.intermediate, output: i, input: h)
        output = try LinearWeights(tensors, names.output, output: h, input: i)
        outputNorm = try NormWeights(tensors, names.outputNorm, size: h)
    }
}

/// How one architecture names the tensors of a ``TransformerBlock`` (without the model prefix).
struct BlockTensorNames {
    var query, key, value, attentionOutput, attentionNorm, intermediate, output, outputNorm: String
}
