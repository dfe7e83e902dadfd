import NLUCore

/// One post-norm transformer block for training (BERT's shape, shared by RoBERTa, DistilBERT and
/// MPNet): attention, dropout, residual, layer norm; feed-forward, dropout, residual, layer norm.
/// The forward pass reads `workspace.hidden[index]` and writes `workspace.hidden[index + 1]`,
/// keeping its activations in `workspace.layers[index]`; the backward pass turns d(output) in
/// `workspace.gradientHidden` into d(input) there, adding the parameters' gradients to
/// ``EncoderParameters/gradients``. Dense layers run on the workspace's ``TrainingProducts``, which
/// packs the weights as they are at each call (their weight gradients on `sgemm`, see `Linear.backward`).
///
///     let block = TrainableBlock(parameters: encoder.parameters, indices: layout.blocks[0], index: 0,
///                                configuration: config, dropsAttentionOutput: true)
///     block.forward(workspace, dropout: dropout, generator: &generator)
struct TrainableBlock {
    let parameters: EncoderParameters
    let indices: BlockParameters
    let index: Int
    let configuration: BertConfiguration
    let dropsAttentionOutput: Bool

    private func forward(_ dense: DenseParameters, _ input: UnsafePointer<Float>, rows: Int,
                         into output: UnsafeMutablePointer<Float>, workspace: EncoderTrainingWorkspace) {
        Linear.forward(input, rows: rows, weight: parameters.value(at: dense.weight), bias: parameters.value(at: dense.bias),
                       inputSize: dense.inputSize, outputSize: dense.outputSize, into: output, products: workspace.products)
    }

    /// Multiplies `values` by a fresh dropout mask drawn into `mask`.
    private static func drop(_ values: UnsafeMutablePointer<Float>, mask: UnsafeMutablePointer<Float>, count: Int,
                             probability: Float, generator: inout SplitMix64) {
        Dropout.fillMask(UnsafeMutableBufferPointer(start: mask, count: count), probability: probability, generator: &generator)
        for element in 0..<count { values[element] *= mask[element] }
    }

    /// The block's forward pass (see the type's note).
    func forward(_ workspace: EncoderTrainingWorkspace, mask: [Int32], biased: Bool, dropout: EncoderDropout,
                 generator: inout SplitMix64) {
        let layer = workspace.layers[index], input = workspace.hidden[index], output = workspace.hidden[index + 1]
        let rows = workspace.rows, h = configuration.hiddenSize, i = configuration.intermediateSize
        let epsilon = configuration.layerNormEpsilon
        forward(indices.query, input, rows: rows, into: layer.query, workspace: workspace)
        forward(indices.key, input, rows: rows, into: layer.key, workspace: workspace)
        forward(indices.value, input, rows: rows, into: layer.value, workspace: workspace)
        TrainableAttention.forward(layer, workspace: workspace, mask: mask, heads: configuration.attentionHeadCount,
                                   headSize: configuration.headSize, biased: biased, dropout: dropout.attention,
                                   generator: &generator)
        // LayerNorm(input + dropout(context · Woᵀ + bo)).
        let sum = workspace.sumScratch
        forward(indices.attentionOutput, layer.context, rows: rows, into: sum, workspace: workspace)
        if dropsAttentionOutput && dropout.hidden > 0 {
            Self.drop(sum, mask: layer.attentionMask, count: rows * h, probability: dropout.hidden, generator: &generator)
        }
        for element in 0..<(rows * h) { sum[element] += input[element] }
        TrainingLayerNorm.forward(sum, rows: rows, size: h, gamma: parameters.value(at: indices.attentionNorm.weight),
                                  beta: parameters.value(at: indices.attentionNorm.bias), epsilon: epsilon,
                                  normalized: layer.attentionNormalized, inverseDeviation: layer.attentionInverseDeviation,
                                  output: layer.attentionOutput)
        // LayerNorm(a + dropout(act(a · W₁ᵀ + b₁) · W₂ᵀ + b₂)).
        forward(indices.intermediate, layer.attentionOutput, rows: rows, into: layer.preActivation, workspace: workspace)
        ActivationGradient.forward(configuration.activation, layer.preActivation, into: layer.activation, count: rows * i)
        forward(indices.output, layer.activation, rows: rows, into: sum, workspace: workspace)
        if dropout.hidden > 0 {
            Self.drop(sum, mask: layer.outputMask, count: rows * h, probability: dropout.hidden, generator: &generator)
        }
        for element in 0..<(rows * h) { sum[element] += layer.attentionOutput[element] }
        TrainingLayerNorm.forward(sum, rows: rows, size: h, gamma: parameters.value(at: indices.outputNorm.weight),
                                  beta: parameters.value(at: indices.outputNorm.bias), epsilon: epsilon,
                                  normalized: layer.outputNormalized, inverseDeviation: layer.outputInverseDeviation,
                                  output: output)
    }

    private func backward(_ dense: DenseParameters, outputGradient: UnsafePointer<Float>, input: UnsafePointer<Float>,
                          rows: Int, inputGradient: UnsafeMutablePointer<Float>, accumulatingInput: Bool,
                          workspace: EncoderTrainingWorkspace) {
        Linear.backward(outputGradient: outputGradient, input: input, rows: rows, weight: parameters.value(at: dense.weight),
                        inputSize: dense.inputSize, outputSize: dense.outputSize,
                        weightGradient: parameters.gradient(at: dense.weight), biasGradient: parameters.gradient(at: dense.bias),
                        inputGradient: inputGradient, products: workspace.products, accumulatingParameters: true,
                        accumulatingInput: accumulatingInput)
    }

    private func normBackward(_ norm: NormParameters, _ outputGradient: UnsafePointer<Float>,
                              normalized: UnsafePointer<Float>, inverseDeviation: UnsafePointer<Float>, rows: Int,
                              into inputGradient: UnsafeMutablePointer<Float>) {
        TrainingLayerNorm.backward(outputGradient, normalized: normalized, inverseDeviation: inverseDeviation, rows: rows,
                                   size: configuration.hiddenSize, gamma: parameters.value(at: norm.weight),
                                   gammaGradient: parameters.gradient(at: norm.weight),
                                   betaGradient: parameters.gradient(at: norm.bias), inputGradient: inputGradient)
    }

    /// The block's backward pass (see the type's note); `dropout` tells which masks the forward pass drew.
    func backward(_ workspace: EncoderTrainingWorkspace, dropout: EncoderDropout, biasGradient: UnsafeMutablePointer<Float>?) {
        let layer = workspace.layers[index], input = workspace.hidden[index]
        let rows = workspace.rows, h = configuration.hiddenSize, count = rows * h
        let gradientOutput = workspace.gradientHidden, gradientAttention = workspace.gradientAttention
        let scratch = workspace.gradientScratch
        // Second norm: d(sum) = d(a) of the residual, and the feed-forward output's (through its dropout).
        normBackward(indices.outputNorm, gradientOutput, normalized: layer.outputNormalized,
                     inverseDeviation: layer.outputInverseDeviation, rows: rows, into: scratch)
        gradientAttention.update(from: scratch, count: count)
        if dropout.hidden > 0 {
            for element in 0..<count { scratch[element] *= layer.outputMask[element] }
        }
        backward(indices.output, outputGradient: scratch, input: layer.activation, rows: rows,
                 inputGradient: workspace.gradientIntermediate, accumulatingInput: false, workspace: workspace)
        ActivationGradient.backward(configuration.activation, layer.preActivation, gradient: workspace.gradientIntermediate,
                                    count: rows * configuration.intermediateSize)
        backward(indices.intermediate, outputGradient: workspace.gradientIntermediate, input: layer.attentionOutput,
                 rows: rows, inputGradient: gradientAttention, accumulatingInput: true, workspace: workspace)
        // First norm: d(sum) = d(input) of the residual, and the attention output's.
        normBackward(indices.attentionNorm, gradientAttention, normalized: layer.attentionNormalized,
                     inverseDeviation: layer.attentionInverseDeviation, rows: rows, into: scratch)
        gradientOutput.update(from: scratch, count: count)
        if dropsAttentionOutput && dropout.hidden > 0 {
            for element in 0..<count { scratch[element] *= layer.attentionMask[element] }
        }
        backward(indices.attentionOutput, outputGradient: scratch, input: layer.context, rows: rows,
                 inputGradient: workspace.gradientContext, accumulatingInput: false, workspace: workspace)
        TrainableAttention.backward(layer, workspace: workspace, heads: configuration.attentionHeadCount,
                                    headSize: configuration.headSize, dropout: dropout.attention > 0,
                                    biasGradient: biasGradient)
        // The input feeds the residual (already in gradientOutput) and the three projections.
        backward(indices.query, outputGradient: workspace.gradientQuery, input: input, rows: rows,
                 inputGradient: gradientOutput, accumulatingInput: true, workspace: workspace)
        backward(indices.key, outputGradient: workspace.gradientKey, input: input, rows: rows,
                 inputGradient: gradientOutput, accumulatingInput: true, workspace: workspace)
        backward(indices.value, outputGradient: workspace.gradientValue, input: input, rows: rows,
                 inputGradient: gradientOutput, accumulatingInput: true, workspace: workspace)
    }
}
