import NLUCore

/// Where one dense layer's weight ([output, input]) and bias ([output]) sit in ``EncoderParameters``.
struct DenseParameters {
    let weight: Int
    let bias: Int
    let outputSize: Int
    let inputSize: Int
}

/// Where one layer norm's weight (gamma) and bias (beta) sit in ``EncoderParameters``.
struct NormParameters {
    let weight: Int
    let bias: Int
}

/// Where one transformer block's tensors sit in ``EncoderParameters``.
struct BlockParameters {
    let query, key, value, attentionOutput: DenseParameters
    let attentionNorm: NormParameters
    let intermediate, output: DenseParameters
    let outputNorm: NormParameters
}

/// The trainable parameters an architecture has, named and shaped as `transformers` names and
/// shapes them, with the facts of its embeddings the passes need: which embedding rows PyTorch
/// keeps at zero gradient (`nn.Embedding(padding_idx:)`) and whether the attention output has a
/// dropout (DistilBERT's has none).
///
///     let layout = TrainableEncoderLayout(configuration: config, padTokenID: 0, trainsPositions: true)
///     print(layout.names.first!)   // embeddings.word_embeddings.weight
struct TrainableEncoderLayout {
    private(set) var names: [String] = []
    private(set) var shapes: [[Int]] = []
    private(set) var wordEmbeddings = 0
    private(set) var positionEmbeddings = 0
    private(set) var tokenTypeEmbeddings: Int?
    private(set) var embeddingNorm = NormParameters(weight: 0, bias: 0)
    private(set) var blocks: [BlockParameters] = []
    /// MPNet's `encoder.relative_attention_bias.weight`, `[buckets, heads]`.
    private(set) var relativeAttentionBias: Int?
    /// The word-embedding row whose gradient stays zero: `padding_idx` of `word_embeddings`
    /// (`pad_token_id`; MPNet: 1, the padding index it fixes).
    let wordPaddingIndex: Int
    /// The position-embedding row whose gradient stays zero: the padding index for families whose
    /// positions count from after it (RoBERTa, MPNet); none for positions from 0 (BERT, DistilBERT).
    let positionPaddingIndex: Int?
    /// Whether the position table learns (false for DistilBERT's fixed sinusoidal table).
    let trainsPositions: Bool
    /// Whether the attention output passes through hidden dropout before its residual (all but DistilBERT).
    let dropsAttentionOutput: Bool

    /// The layout of `configuration`'s architecture; `padTokenID` is `config.json`'s `pad_token_id`
    /// (nil: `transformers`' default for the architecture); `trainsPositions` false freezes the position table.
    init(configuration config: BertConfiguration, padTokenID: Int?, trainsPositions: Bool = true) {
        self.trainsPositions = trainsPositions
        let h = config.hiddenSize, i = config.intermediateSize
        let tensorNames = config.architecture.family.tensorNames
        if config.positionsFollowPadding {
            (wordPaddingIndex, positionPaddingIndex) = (config.paddingIndex, config.paddingIndex)
        } else {
            (wordPaddingIndex, positionPaddingIndex) = (padTokenID ?? 0, nil)
        }
        dropsAttentionOutput = config.architecture.family.dropsOutAttentionOutput
        wordEmbeddings = add(tensorNames.wordEmbeddings + ".weight", [config.vocabularySize, h])
        positionEmbeddings = add(tensorNames.positionEmbeddings + ".weight", [config.maxPositionEmbeddings, h])
        if let tokenTypes = tensorNames.tokenTypeEmbeddings, config.typeVocabularySize > 0 {
            tokenTypeEmbeddings = add(tokenTypes + ".weight", [config.typeVocabularySize, h])
        }
        embeddingNorm = addNorm(tensorNames.embeddingNorm, size: h)
        for layer in 0..<config.layerCount {
            let names = tensorNames.block.prefixed(tensorNames.layerPrefix + "\(layer).")
            let query = addDense(names.query, output: h, input: h)
            let key = addDense(names.key, output: h, input: h)
            let value = addDense(names.value, output: h, input: h)
            let attentionOutput = addDense(names.attentionOutput, output: h, input: h)
            let attentionNorm = addNorm(names.attentionNorm, size: h)
            let intermediate = addDense(names.intermediate, output: i, input: h)
            let output = addDense(names.output, output: h, input: i)
            let outputNorm = addNorm(names.outputNorm, size: h)
            blocks.append(BlockParameters(query: query, key: key, value: value, attentionOutput: attentionOutput,
                                          attentionNorm: attentionNorm, intermediate: intermediate, output: output,
                                          outputNorm: outputNorm))
        }
        if let bias = tensorNames.relativeAttentionBias {
            relativeAttentionBias = add(bias + ".weight", [config.relativeAttentionBucketCount, config.attentionHeadCount])
        }
    }

    private mutating func add(_ name: String, _ shape: [Int]) -> Int {
        names.append(name)
        shapes.append(shape)
        return names.count - 1
    }

    private mutating func addDense(_ name: String, output: Int, input: Int) -> DenseParameters {
        DenseParameters(weight: add(name + ".weight", [output, input]), bias: add(name + ".bias", [output]),
                        outputSize: output, inputSize: input)
    }

    private mutating func addNorm(_ name: String, size: Int) -> NormParameters {
        NormParameters(weight: add(name + ".weight", [size]), bias: add(name + ".bias", [size]))
    }
}
