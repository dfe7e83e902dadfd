/// How one family names the tensors of a ``TransformerBlock`` within a layer (without the model's and
/// the layer's prefixes): the dense layers' and layer norms' names, each followed by `.weight` / `.bias`
/// in the checkpoint.
///
///     let names = BertFamily.tensorNames.block.prefixed("encoder.layer.3.")
///     print(names.query)   // encoder.layer.3.attention.self.query
package struct BlockTensorNames: Sendable, Equatable {
    package var query, key, value, attentionOutput, attentionNorm, intermediate, output, outputNorm: String

    /// The names of a block's eight layers.
    package init(query: String, key: String, value: String, attentionOutput: String, attentionNorm: String,
                 intermediate: String, output: String, outputNorm: String) {
        self.query = query
        self.key = key
        self.value = value
        self.attentionOutput = attentionOutput
        self.attentionNorm = attentionNorm
        self.intermediate = intermediate
        self.output = output
        self.outputNorm = outputNorm
    }

    /// The same names under `prefix` (e.g. `encoder.layer.3.`).
    package func prefixed(_ prefix: String) -> BlockTensorNames {
        BlockTensorNames(query: prefix + query, key: prefix + key, value: prefix + value,
                         attentionOutput: prefix + attentionOutput, attentionNorm: prefix + attentionNorm,
                         intermediate: prefix + intermediate, output: prefix + output, outputNorm: prefix + outputNorm)
    }
}
