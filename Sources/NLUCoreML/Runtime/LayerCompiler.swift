/// Maps each `NeuralNetworkLayer` of a file to the code that runs it, or to an error that names the layer and its
/// kind when the kind is not supported. The list here is the list in docs/coreml.md.
enum LayerCompiler {
    static func compile(_ layer: CoreML_Specification_NeuralNetworkLayer, rank5: Bool, budget: WeightBudget) throws -> CompiledLayer {
        var compiled = try body(of: layer, rank5: rank5, budget: budget)
        compiled.shapeRule = ShapeInference.rule(for: layer, rank5: rank5)
        return compiled
    }

    private static func body(of layer: CoreML_Specification_NeuralNetworkLayer, rank5: Bool, budget: WeightBudget) throws -> CompiledLayer {
        let kind = kindName(of: layer)
        let context = LayerContext(name: layer.name, kind: kind, inputs: layer.input, outputs: layer.output, rank5: rank5,
                                   budget: budget)
        switch layer.layer {
        case .innerProduct(let p): return try DenseLayers.innerProduct(p, context)
        case .activation(let p): return try DenseLayers.activation(p, context)
        case .softmax: return try DenseLayers.softmax(context)
        case .concat(let p): return try DenseLayers.concat(p, context)
        case .flatten(let p): return try DenseLayers.flatten(p, context)
        case .reshape(let p): return try DenseLayers.reshape(p, context)
        case .add(let p): return try DenseLayers.add(p, context)
        case .multiply(let p): return try DenseLayers.multiply(p, context)
        case .unary(let p): return try DenseLayers.unaryFunction(p, context)
        case .loadConstant(let p): return try DenseLayers.loadConstant(p, context)
        case .embedding(let p):
            return try DenseLayers.embedding(vocabulary: p.inputDim, size: p.outputChannels, hasBias: p.hasBias_p, weights: p.weights,
                                             bias: p.bias, nd: false, context)
        case .embeddingNd(let p):
            return try DenseLayers.embedding(vocabulary: p.vocabSize, size: p.embeddingSize, hasBias: p.hasBias_p, weights: p.weights,
                                             bias: p.bias, nd: true, context)
        case .simpleRecurrent(let p): return try RecurrentLayers.simpleRecurrent(p, context)
        case .gru(let p): return try RecurrentLayers.gru(p, context)
        case .uniDirectionalLstm(let p): return try RecurrentLayers.uniDirectionalLSTM(p, context)
        case .biDirectionalLstm(let p): return try RecurrentLayers.biDirectionalLSTM(p, context)
        case .batchedMatmul(let p): return try TensorLayers.batchedMatMul(p, context)
        case .layerNormalization(let p): return try TensorLayers.layerNormalization(p, context)
        case .gelu(let p): return try TensorLayers.gelu(p, context)
        case .erf: return try TensorLayers.erf(context)
        case .softmaxNd(let p): return try TensorLayers.softmaxND(p, context)
        case .transpose(let p): return try TensorLayers.transpose(p, context)
        case .reshapeStatic(let p): return try TensorLayers.reshapeStatic(p, context)
        case .reshapeDynamic: return try TensorLayers.reshapeDynamic(context)
        case .splitNd(let p): return try TensorLayers.splitND(p, context)
        case .sliceStatic(let p): return try TensorLayers.sliceStatic(p, context)
        case .gather(let p): return try TensorLayers.gather(p, context)
        case .addBroadcastable: return try TensorLayers.broadcastable(context, +)
        case .subtractBroadcastable: return try TensorLayers.broadcastable(context, -)
        case .multiplyBroadcastable: return try TensorLayers.broadcastable(context, *)
        case .divideBroadcastable: return try TensorLayers.broadcastable(context, /)
        case .loadConstantNd(let p): return try TensorLayers.loadConstantND(p, context)
        case .squeeze(let p): return try TensorLayers.squeeze(p, context)
        case .expandDims(let p): return try TensorLayers.expandDims(p, context)
        case .concatNd(let p): return try TensorLayers.concatND(p, context)
        case .flattenTo2D(let p): return try TensorLayers.flattenTo2D(p, context)
        case .reduceMean(let p): return try TensorLayers.reduceMean(p, context)
        case .mvn(let p): return try ChannelLayers.meanVarianceNormalize(p, context)
        case .scale(let p): return try ChannelLayers.scale(p, context)
        case .bias(let p): return try ChannelLayers.bias(p, context)
        default: throw CoreMLError.unsupportedLayer(name: layer.name, kind: kind)
        }
    }

    /// The layer's kind as the `.proto` spells it (`innerProduct`, `uniDirectionalLSTM`, …), or "none".
    static func kindName(of layer: CoreML_Specification_NeuralNetworkLayer) -> String {
        guard let value = layer.layer, let label = Mirror(reflecting: value).children.first?.label else { return "none" }
        return protoSpelling[label] ?? label
    }

    /// Where swift-protobuf's Swift case name differs from the `.proto` field name.
    private static let protoSpelling = [
        "uniDirectionalLstm": "uniDirectionalLSTM", "biDirectionalLstm": "biDirectionalLSTM", "embeddingNd": "embeddingND",
        "batchedMatmul": "batchedMatmul", "softmaxNd": "softmaxND", "splitNd": "splitND", "concatNd": "concatND",
        "loadConstantNd": "loadConstantND", "gatherNd": "gatherND", "scatterNd": "scatterND", "clampedReLu": "clampedReLU",
        "preLu": "PReLU",
    ]
}
