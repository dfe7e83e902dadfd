import NLUCore

/// The embedding step of a training pass: `LayerNorm(word[id] + position[p] + type[t])` per computed
/// token (``EncoderTrainingWorkspace/arrange(computedLengths:)``), then hidden dropout, into
/// `workspace.hidden[0]`; and its backward pass, which adds each token's
/// gradient to the rows it read. Rows an `nn.Embedding(padding_idx:)` keeps at zero gradient in
/// PyTorch (the padding token's word row; RoBERTa's and MPNet's padding position row) get none.
///
///     let embeddings = TrainableEmbeddings(parameters: parameters, layout: layout, configuration: config)
///     try embeddings.forward(batch, workspace: workspace, dropout: 0, generator: &generator)
struct TrainableEmbeddings {
    let parameters: EncoderParameters
    let layout: TrainableEncoderLayout
    let configuration: BertConfiguration

    /// The position id of each token, as `transformers` makes them for the architecture.
    private func positionIDs(_ batch: EncoderBatch) -> [Int] {
        configuration.positionsFollowPadding
            ? PaddingOffsetPositions.positionIDs(batch, paddingIndex: configuration.paddingIndex)
            : (0..<(batch.batchSize * batch.sequenceLength)).map { $0 % batch.sequenceLength }
    }

    /// Checks every id against its table, then fills `workspace.hidden[0]`.
    func forward(_ batch: EncoderBatch, workspace: EncoderTrainingWorkspace, dropout: Float,
                 generator: inout SplitMix64) throws {
        let h = configuration.hiddenSize
        let positions = positionIDs(batch)
        // Every position is checked, computed or not: a batch is refused the same way in both layouts.
        for row in 0..<(batch.batchSize * batch.sequenceLength) {
            let word = Int(batch.tokenIDs[row]), type = Int(batch.tokenTypeIDs[row])
            guard word >= 0 && word < configuration.vocabularySize else {
                throw ModelError.invalidFeatureValue("wordIDs", reason: "value \(word) at position \(row) is outside 0..<\(configuration.vocabularySize)")
            }
            guard positions[row] >= 0 && positions[row] < configuration.maxPositionEmbeddings else {
                throw ModelError.invalidFeatureValue("position", reason: "position \(positions[row]) at \(row) is outside 0..<\(configuration.maxPositionEmbeddings)")
            }
            if layout.tokenTypeEmbeddings != nil, type < 0 || type >= configuration.typeVocabularySize {
                throw ModelError.invalidFeatureValue("wordTypes", reason: "value \(type) at position \(row) is outside 0..<\(configuration.typeVocabularySize)")
            }
        }
        let rows = workspace.rows, index = workspace.batchIndex
        for row in 0..<rows { workspace.positionIDs[row] = positions[index[row]] }
        let words = parameters.value(at: layout.wordEmbeddings), places = parameters.value(at: layout.positionEmbeddings)
        let types = layout.tokenTypeEmbeddings.map { parameters.value(at: $0) }
        let sum = workspace.sumScratch
        for row in 0..<rows {
            let target = sum + row * h
            let word = words + Int(batch.tokenIDs[index[row]]) * h, place = places + workspace.positionIDs[row] * h
            for column in 0..<h { target[column] = word[column] + place[column] }
            if let types {
                let type = types + Int(batch.tokenTypeIDs[index[row]]) * h
                for column in 0..<h { target[column] += type[column] }
            }
        }
        let norm = layout.embeddingNorm, output = workspace.hidden[0]
        TrainingLayerNorm.forward(sum, rows: rows, size: h, gamma: parameters.value(at: norm.weight),
                                  beta: parameters.value(at: norm.bias), epsilon: configuration.layerNormEpsilon,
                                  normalized: workspace.embeddingNormalized,
                                  inverseDeviation: workspace.embeddingInverseDeviation, output: output)
        if dropout > 0 {
            let mask = workspace.embeddingMask
            Dropout.fillMask(UnsafeMutableBufferPointer(start: mask, count: rows * h), probability: dropout, generator: &generator)
            for element in 0..<(rows * h) { output[element] *= mask[element] }
        }
    }

    /// From d(hidden[0]) in `workspace.gradientHidden`, adds the tables' and the norm's gradients.
    func backward(_ batch: EncoderBatch, workspace: EncoderTrainingWorkspace, dropout: Bool) {
        let rows = workspace.rows, h = configuration.hiddenSize, index = workspace.batchIndex
        let gradient = workspace.gradientHidden, sumGradient = workspace.gradientScratch
        if dropout {
            for element in 0..<(rows * h) { gradient[element] *= workspace.embeddingMask[element] }
        }
        let norm = layout.embeddingNorm
        TrainingLayerNorm.backward(gradient, normalized: workspace.embeddingNormalized,
                                   inverseDeviation: workspace.embeddingInverseDeviation, rows: rows, size: h,
                                   gamma: parameters.value(at: norm.weight), gammaGradient: parameters.gradient(at: norm.weight),
                                   betaGradient: parameters.gradient(at: norm.bias), inputGradient: sumGradient)
        let words = parameters.gradient(at: layout.wordEmbeddings), places = parameters.gradient(at: layout.positionEmbeddings)
        let types = layout.tokenTypeEmbeddings.map { parameters.gradient(at: $0) }
        for row in 0..<rows {
            let source = sumGradient + row * h
            let word = Int(batch.tokenIDs[index[row]]), place = workspace.positionIDs[row]
            if word != layout.wordPaddingIndex {
                parameters.markGradientRow(word)
                let target = words + word * h
                for column in 0..<h { target[column] += source[column] }
            }
            if layout.trainsPositions && place != layout.positionPaddingIndex {
                let target = places + place * h
                for column in 0..<h { target[column] += source[column] }
            }
            if let types {
                let target = types + Int(batch.tokenTypeIDs[index[row]]) * h
                for column in 0..<h { target[column] += source[column] }
            }
        }
    }
}
