import NLUCore

/// What every family's checkpoints hold alike under different names: the word and position embedding
/// tables, the embedding layer norm, and the stack of ``TransformerBlock``s. Each family names its
/// tensors (``EncoderTensorNames``) and its encoder adds what is its own (BERT's token types, MPNet's
/// relative position bias).
///
///     let layers = try EncoderLayers(tensors, configuration: config, names: BertFamily.tensorNames, precision: .f32)
package struct EncoderLayers: Sendable {
    /// `[vocabulary, hidden]`.
    let wordEmbeddings: Tensor<Float>
    /// `[max positions, hidden]`.
    let positionEmbeddings: Tensor<Float>
    let embeddingNorm: NormWeights
    let blocks: [TransformerBlock]

    /// Loads the embeddings (`names.wordEmbeddings`, `names.positionEmbeddings`, `names.embeddingNorm`)
    /// and block `index` from the tensors `names.layerPrefix + index + "." + names.block`, checking every shape.
    init(_ tensors: CheckpointTensors, configuration: BertConfiguration, names: EncoderTensorNames,
         precision: Precision) throws {
        let h = configuration.hiddenSize
        wordEmbeddings = try tensors.tensor(names.wordEmbeddings + ".weight", shape: [configuration.vocabularySize, h])
        positionEmbeddings = try tensors.tensor(names.positionEmbeddings + ".weight",
                                                shape: [configuration.maxPositionEmbeddings, h])
        embeddingNorm = try NormWeights(tensors, names.embeddingNorm, size: h)
        blocks = try (0..<configuration.layerCount).map { index in
            do {
                return try TransformerBlock(tensors, names: names.block.prefixed(names.layerPrefix + "\(index)."),
                                            configuration: configuration, precision: precision)
            } catch CheckpointError.missingTensor(let name, let file) {
                // The layer count comes from config.json: name it beside the weights file.
                throw CheckpointError.missingLayerTensor(name: name, layer: index, layers: configuration.layerCount, file: file)
            }
        }
    }
}
