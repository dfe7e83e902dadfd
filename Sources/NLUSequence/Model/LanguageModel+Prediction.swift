import NLUCore

/// The Core-ML-like feature interface: inputs `previousWord` and optional `stateIn`, outputs
/// `nextWord`, `nextWordProbabilities` and `stateOut`.
extension LanguageModel {
    /// Feature names, as in the Core ML RNN sample.
    public enum FeatureName {
        public static let previousWord = "previousWord"
        public static let stateIn = "stateIn"
        public static let nextWord = "nextWord"
        public static let nextWordProbabilities = "nextWordProbabilities"
        public static let stateOut = "stateOut"
    }

    public var modelDescription: ModelDescription {
        let stateType = FeatureType.tensor(.float32, shape: configuration.stateShape.map { $0 })
        let layout = configuration.cell == .lstm ? "[layers, 2 (h, c), hidden]" : "[layers, 1 (h), hidden]"
        return ModelDescription(
            inputs: [
                .init(name: FeatureName.previousWord, type: .string, summary: "the last \(configuration.level.rawValue) of the text so far"),
                .init(name: FeatureName.stateIn, type: stateType, isOptional: true,
                      summary: "the stateOut of the previous prediction, \(layout); absent = a new sequence"),
            ],
            outputs: [
                .init(name: FeatureName.nextWord, type: .string, summary: "the most probable next token"),
                .init(name: FeatureName.nextWordProbabilities, type: .dictionary,
                      summary: "the \(probabilityCount) most probable next tokens and their probabilities"),
                .init(name: FeatureName.stateOut, type: stateType, summary: "the state after this token, \(layout)"),
            ],
            metadata: metadata)
    }

    /// One step with the state passed as a feature (`stateIn` absent = a new sequence).
    public func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        try modelDescription.validate(input)
        var state = input.featureValue(for: FeatureName.stateIn)?.floatTensorValue ?? zeroState()
        return try step(input, state: &state)
    }

    /// A zero state: the start of a sequence.
    public func makeState() -> LanguageModelState {
        LanguageModelState(shape: configuration.stateShape)
    }

    /// One step reading and updating `state` in place (a `stateIn` feature, if given, is ignored).
    public func prediction(from input: FeatureProvider, using state: LanguageModelState) throws -> FeatureProvider {
        try modelDescription.validate(input)
        return try state.update { try step(input, state: &$0) }
    }

    private func step(_ input: FeatureProvider, state: inout Tensor<Float>) throws -> FeatureProvider {
        guard let word = input.featureValue(for: FeatureName.previousWord)?.stringValue else {
            throw ModelError.missingFeature(FeatureName.previousWord, expected: .string)
        }
        let probabilities = try nextTokenProbabilities(after: tokenID(for: word), state: &state)
        let top = TopEntries.largest(probabilities, count: max(1, probabilityCount))
        var entries: [String: Double] = [:]
        for (id, probability) in top { entries[vocabulary.tokens[id]] = Double(probability) }
        return DictionaryFeatureProvider([
            FeatureName.nextWord: .string(vocabulary.tokens[top.first?.index ?? Int(vocabulary.endID)]),
            FeatureName.nextWordProbabilities: .dictionary(entries),
            FeatureName.stateOut: .floatTensor(state),
        ])
    }
}

/// The largest entries of a probability vector, without sorting all of it.
enum TopEntries {
    /// The `count` largest values of `values` with their indices, largest first (ties: lower index first).
    static func largest(_ values: [Float], count: Int) -> [(index: Int, value: Float)] {
        let wanted = min(count, values.count)
        guard wanted > 0 else { return [] }
        var top: [(index: Int, value: Float)] = []
        top.reserveCapacity(wanted + 1)
        var threshold = -Float.infinity
        for (index, value) in values.enumerated() where top.count < wanted || value > threshold {
            // Insertion into a short sorted list: most values fail the threshold test above.
            var position = top.count
            while position > 0 && top[position - 1].value < value { position -= 1 }
            top.insert((index, value), at: position)
            if top.count > wanted { top.removeLast() }
            threshold = top[top.count - 1].value
        }
        return top
    }
}
