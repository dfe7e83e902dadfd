import NLUCore

/// One post-layer-norm transformer block, the shape BERT and DistilBERT share:
/// self-attention, residual + layer norm, feed-forward, residual + layer norm.
///
/// The forward pass works on raw buffers of an ``EncoderWorkspace``: Q, K and V land side by side
/// in one [rows, 3·hidden] matrix, each head's attention is two strided GEMMs straight on it (no
/// copies per head), and the steps between GEMMs are the raw-pointer ``Kernels`` (threaded over rows).
struct TransformerBlock: Sendable {
    let query: LinearWeights
    let key: LinearWeights
    let value: LinearWeights
    /// The query, key and value biases side by side, matching the [rows, 3·hidden] layout.
    let queryKeyValueBias: [Float]
    let attentionOutput: LinearWeights
    let attentionNorm: NormWeights
    let intermediate: LinearWeights
    let output: LinearWeights
    let outputNorm: NormWeights

    /// Runs the block on `workspace.hidden` in place for `batch.batchSize` sequences of
    /// `batch.sequenceLength` positions; `lengths[b]` is how many leading positions of sequence b
    /// are attended (padding after them is neither a query nor a key).
    func callAsFunction(_ workspace: EncoderWorkspace, batch: EncoderBatch, lengths: [Int], keyMasks: [Bool],
                        configuration: BertConfiguration) {
        let rows = batch.batchSize * batch.sequenceLength
        let hiddenSize = configuration.hiddenSize
        let qkvStride = 3 * hiddenSize
        let qkv = workspace.queryKeyValue
        query.multiply(workspace.hidden, rows: rows, into: qkv, ldc: qkvStride)
        key.multiply(workspace.hidden, rows: rows, into: qkv + hiddenSize, ldc: qkvStride)
        value.multiply(workspace.hidden, rows: rows, into: qkv + 2 * hiddenSize, ldc: qkvStride)
        queryKeyValueBias.withUnsafeBufferPointer { bias in
            guard let bias = bias.baseAddress else { return }
            Kernels.addBias(qkv, rowCount: rows, rowLength: qkvStride, bias: bias)
        }

        attention(workspace, batch: batch, lengths: lengths, keyMasks: keyMasks, configuration: configuration)

        attentionOutput.multiply(workspace.context, rows: rows, into: workspace.projection)
        addResidualAndNormalize(workspace, bias: attentionOutput.bias, norm: attentionNorm, rows: rows, configuration: configuration)

        let inner = intermediate.outputSize
        intermediate.multiply(workspace.hidden, rows: rows, into: workspace.intermediate)
        Kernels.addBias(workspace.intermediate, rowCount: rows, rowLength: inner, bias: intermediate.bias.elementPointer)
        switch configuration.activation {
        case .gelu: Kernels.gelu(workspace.intermediate, count: rows * inner)
        case .geluTanh: Kernels.geluTanh(workspace.intermediate, count: rows * inner)
        case .relu: Kernels.relu(workspace.intermediate, count: rows * inner)
        }
        output.multiply(workspace.intermediate, rows: rows, into: workspace.projection)
        addResidualAndNormalize(workspace, bias: output.bias, norm: outputNorm, rows: rows, configuration: configuration)
    }

    /// `hidden = LayerNorm(projection + bias + hidden)`: the post-norm residual connection.
    private func addResidualAndNormalize(_ workspace: EncoderWorkspace, bias: Tensor<Float>, norm: NormWeights,
                                         rows: Int, configuration: BertConfiguration) {
        let hiddenSize = configuration.hiddenSize
        let hidden = workspace.hidden, projection = workspace.projection
        Kernels.addBias(projection, rowCount: rows, rowLength: hiddenSize, bias: bias.elementPointer)
        for index in 0..<(rows * hiddenSize) { hidden[index] += projection[index] }
        Kernels.layerNorm(hidden, rowCount: rows, rowLength: hiddenSize, weight: norm.gamma.elementPointer,
                          bias: norm.beta.elementPointer, epsilon: configuration.layerNormEpsilon)
    }

    /// Scaled dot-product attention per sequence and head, written into `workspace.context`.
    private func attention(_ workspace: EncoderWorkspace, batch: EncoderBatch, lengths: [Int], keyMasks: [Bool],
                           configuration: BertConfiguration) {
        let hiddenSize = configuration.hiddenSize
        let headSize = configuration.headSize
        let qkvStride = 3 * hiddenSize
        let scale = 1 / Float(headSize).squareRoot()
        let scores = workspace.scores
        for sequence in 0..<batch.batchSize {
            let length = lengths[sequence]
            let firstRow = sequence * batch.sequenceLength
            guard length > 0 else { continue }
            // Masked keys inside the attended prefix (rare: padding is at the end) get -inf.
            let keyMask: [Float]? = keyMasks[sequence]
                ? batch.attentionMask[firstRow..<(firstRow + length)].map { $0 == 0 ? -Float.infinity : 0 } : nil
            keyMask.withUnsafeOptionalBufferPointer { keyMask in
                let base = workspace.queryKeyValue + firstRow * qkvStride
                for head in 0..<configuration.attentionHeadCount {
                    let queries = base + head * headSize
                    let keys = base + hiddenSize + head * headSize
                    let values = base + 2 * hiddenSize + head * headSize
                    // scores = (Q_h · K_hᵀ) / √d over the attended positions only.
                    BLAS.sgemm(.none, .transpose, m: length, n: length, k: headSize, alpha: scale,
                               a: queries, lda: qkvStride, b: keys, ldb: qkvStride, c: scores, ldc: length)
                    Kernels.softmax(scores, rowCount: length, rowLength: length, additiveMask: keyMask)
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
        queryKeyValueBias = query.bias.scalars + key.bias.scalars + value.bias.scalars
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

extension Optional where Wrapped == [Float] {
    /// Calls `body` with the array's buffer address, or nil when there is no array.
    func withUnsafeOptionalBufferPointer<R>(_ body: (UnsafePointer<Float>?) -> R) -> R {
        switch self {
        case .some(let array): return array.withUnsafeBufferPointer { body($0.baseAddress) }
        case .none: return body(nil)
        }
    }
}
