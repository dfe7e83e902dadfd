import NLUCore

/// What BERT, DistilBERT and MPNet checkpoints hold alike under different names: the word and
/// position embedding tables, the embedding layer norm, and the stack of ``TransformerBlock``s.
/// Each encoder names its tensors (a layer prefix and the block's names within a layer) and adds
/// what is its own (BERT's token types, MPNet's relative position bias).
///
///     let layers = try EncoderLayers(tensors, configuration: config, layerPrefix: "encoder.layer.",
///                                    blockNames: BertEncoder.blockNames, precision: .f32)
package struct EncoderLayers: Sendable {
    /// `[vocabulary, hidden]`.
    let wordEmbeddings: Tensor<Float>
    /// `[max positions, hidden]`.
    let positionEmbeddings: Tensor<Float>
    let embeddingNorm: NormWeights
    let blocks: [TransformerBlock]

    /// Loads the embeddings (`embeddings.word_embeddings`, `embeddings.position_embeddings`,
    /// `embeddings.LayerNorm`: the same names in all three families) and block `index` from the
    /// tensors `layerPrefix + index + "." + blockNames`, checking every shape.
    init(_ tensors: CheckpointTensors, configuration: BertConfiguration, layerPrefix: String,
         blockNames: BlockTensorNames, precision: Precision) throws {
        let h = configuration.hiddenSize
        wordEmbeddings = try tensors.tensor("embeddings.word_embeddings.weight", shape: [configuration.vocabularySize, h])
        positionEmbeddings = try tensors.tensor("embeddings.position_embeddings.weight",
                                                shape: [configuration.maxPositionEmbeddings, h])
        embeddingNorm = try NormWeights(tensors, "embeddings.LayerNorm", size: h)
        blocks = try (0..<configuration.layerCount).map { index in
            do {
                return try TransformerBlock(tensors, names: blockNames.prefixed(layerPrefix + "\(index)."),
                                            configuration: configuration, precision: precision)
            } catch CheckpointError.missingTensor(let name, let file) {
                // The layer count comes from config.json: name it beside the weights file.
                throw CheckpointError.missingLayerTensor(name: name, layer: index, layers: configuration.layerCount, file: file)
            }
        }
    }
}
