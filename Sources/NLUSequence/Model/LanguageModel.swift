import Foundation
import NLUCore

/// A recurrent language model: `embedding` → `rnn` (LSTM or GRU layers) → `decoder` (linear) → softmax
/// over the vocabulary, at word or character level.
///
/// It is a ``NLUCore/StatefulModel`` in both of Core ML's shapes. With the state as a feature, pass
/// `previousWord` and the last `stateOut` as `stateIn` (none = a new sequence):
///
///     let model = try LanguageModel(contentsOf: URL(fileURLWithPath: "shakespeare.nlumodel"))
///     var state: FeatureValue? = nil
///     var word = "to"
///     while word != model.configuration.endToken {
///         var input = DictionaryFeatureProvider(["previousWord": .string(word)])
///         input["stateIn"] = state
///         let output = try model.prediction(from: input)
///         word = output.featureValue(for: "nextWord")?.stringValue ?? model.configuration.endToken
///         state = output.featureValue(for: "stateOut")
///     }
///
/// With a state object updated in place: `let state = model.makeState()`, then
/// `try model.prediction(from: input, using: state)` for each word; `state.reset()` starts over.
///
/// **State layout**: `[layers, components, hidden]`, layers bottom first; component 0 is `h` and, for an
/// LSTM, component 1 is `c` (GRU: one component). That is PyTorch's `(h_n, c_n)` with batch 1,
/// stacked on axis 1.
public struct LanguageModel: StatefulModel {
    /// Sizes, cell, level and vocabulary (the package manifest's `config`).
    public let configuration: LanguageModelConfiguration
    /// Token ↔ id.
    public let vocabulary: LanguageModelVocabulary
    /// Text → tokens for this model's level and casing.
    public let tokenizer: LanguageModelTokenizer
    /// `embedding.weight`: `[vocabulary, embeddingSize]`.
    public internal(set) var embedding: Tensor<Float>
    /// `rnn.*`: the recurrent layers.
    public internal(set) var rnn: any RecurrentNetwork
    /// `decoder.*`: hidden state → next-token logits, NLUCore's one dense layer (forward and
    /// backward), weight `[vocabulary, hiddenSize]` and bias `[vocabulary]`.
    public internal(set) var decoder: Linear
    /// `decoder.weight`: `[vocabulary, hiddenSize]`.
    public var decoderWeight: Tensor<Float> { decoder.weight }
    /// `decoder.bias`: `[vocabulary]`.
    public var decoderBias: Tensor<Float> { decoder.bias ?? Tensor(shape: [vocabulary.count]) }
    /// How many of the most probable next tokens `nextWordProbabilities` lists.
    public var probabilityCount: Int = 5
    /// Free-form facts from the package (training corpus, epochs, perplexity, ...).
    public var metadata: [String: String] = [:]

    /// The tensor names of a model with `configuration`, in parameter order.
    public static func weightNames(for configuration: LanguageModelConfiguration) -> [String] {
        ["embedding.weight"]
            + (0..<configuration.layers).flatMap { RecurrentLayerWeights.parameterNames(layer: $0).map { "rnn." + $0 } }
            + ["decoder.weight", "decoder.bias"]
    }

    /// A model with `configuration` and the weights `tensor(name)` returns for each PyTorch name.
    /// - Parameter names: every tensor name available, to reject unexpected extra tensors (nil: don't check).
    /// - Throws: ``LanguageModelError`` naming the field or tensor that does not fit.
    public init(configuration: LanguageModelConfiguration, names: [String]? = nil,
                tensor: (String) throws -> Tensor<Float>?) throws {
        try configuration.validate()
        let vocabularySize = configuration.vocabulary.count
        func load(_ name: String, _ shape: [Int]) throws -> Tensor<Float> {
            guard let value = try tensor(name) else { throw LanguageModelError.weightsMismatch("tensor '\(name)' is missing") }
            guard value.shape == shape else {
                throw LanguageModelError.weightsMismatch("tensor '\(name)' has shape \(value.shape), expected \(shape)")
            }
            return value.contiguous()
        }
        if let names {
            let expected = Set(Self.weightNames(for: configuration))
            if let extra = names.sorted().first(where: { !expected.contains($0) }) {
                throw LanguageModelError.weightsMismatch(
                    "unexpected tensor '\(extra)' (a \(configuration.layers)-layer \(configuration.cell.rawValue) has no such weight)")
            }
        }
        let embedding = try load("embedding.weight", [vocabularySize, configuration.embeddingSize])
        let rnn: any RecurrentNetwork
        do {
            switch configuration.cell {
            case .lstm:
                rnn = try LSTM(inputSize: configuration.embeddingSize, hiddenSize: configuration.hiddenSize,
                               layerCount: configuration.layers, prefix: "rnn.", tensor: tensor)
            case .gru:
                rnn = try GRU(inputSize: configuration.embeddingSize, hiddenSize: configuration.hiddenSize,
                              layerCount: configuration.layers, prefix: "rnn.", tensor: tensor)
            }
        } catch let error as LayerWeightsError {
            throw LanguageModelError.weightsMismatch(error.description)
        }
        let decoderWeight = try load("decoder.weight", [vocabularySize, configuration.hiddenSize])
        let decoderBias = try load("decoder.bias", [vocabularySize])
        try self.init(configuration: configuration, embedding: embedding, rnn: rnn,
                      decoderWeight: decoderWeight, decoderBias: decoderBias)
    }

    /// A new model with random weights (PyTorch's defaults for the RNN; embedding and decoder
    /// uniform in ±0.1 with a zero bias, as PyTorch's word_language_model example).
    ///
    ///     let model = try LanguageModel(configuration: config, seed: 42)
    public init(configuration: LanguageModelConfiguration, seed: UInt64) throws {
        try configuration.validate()
        var generator = SplitMix64(seed: seed)
        func uniform(_ shape: [Int], _ bound: Float) -> Tensor<Float> {
            Tensor(shape: shape, scalars: (0..<shape.reduce(1, *)).map { _ in Float.random(in: -bound...bound, using: &generator) })
        }
        let vocabularySize = configuration.vocabulary.count
        let embedding = uniform([vocabularySize, configuration.embeddingSize], 0.1)
        let rnn: any RecurrentNetwork
        switch configuration.cell {
        case .lstm: rnn = LSTM(inputSize: configuration.embeddingSize, hiddenSize: configuration.hiddenSize,
                               layerCount: configuration.layers, using: &generator)
        case .gru: rnn = GRU(inputSize: configuration.embeddingSize, hiddenSize: configuration.hiddenSize,
                             layerCount: configuration.layers, using: &generator)
        }
        try self.init(configuration: configuration, embedding: embedding, rnn: rnn,
                      decoderWeight: uniform([vocabularySize, configuration.hiddenSize], 0.1),
                      decoderBias: Tensor(shape: [vocabularySize]))
    }

    init(configuration: LanguageModelConfiguration, embedding: Tensor<Float>, rnn: any RecurrentNetwork,
         decoderWeight: Tensor<Float>, decoderBias: Tensor<Float>) throws {
        self.configuration = configuration
        self.vocabulary = try LanguageModelVocabulary(tokens: configuration.vocabulary, unknownToken: configuration.unknownToken,
                                                      endToken: configuration.endToken)
        self.tokenizer = LanguageModelTokenizer(level: configuration.level, lowercase: configuration.lowercase)
        self.embedding = embedding
        self.rnn = rnn
        do {
            self.decoder = try Linear(weight: decoderWeight, bias: decoderBias)
        } catch let error as LayerWeightsError {
            throw LanguageModelError.weightsMismatch(error.description)
        }
    }

    /// Every weight by its PyTorch `state_dict` name (what the model package stores).
    public var namedWeights: [String: Tensor<Float>] {
        var weights = ["embedding.weight": embedding, "decoder.weight": decoderWeight, "decoder.bias": decoderBias]
        for (name, tensor) in rnn.namedParameters(prefix: "rnn.") { weights[name] = tensor }
        return weights
    }

    // MARK: - Running

    /// A zero state for one sequence, `[layers, components, hidden]` (see the type's state layout).
    public func zeroState() -> Tensor<Float> { Tensor(shape: configuration.stateShape) }

    /// The id a single token maps to (lowercased if the model lowercases; unknown → the unknown id).
    public func tokenID(for token: String) -> Int32 {
        vocabulary.idOrUnknown(for: configuration.lowercase ? token.lowercased() : token)
    }

    /// Runs one step: feeds `tokenID` with `state` (`[layers, components, hidden]`, updated in place)
    /// and returns the probability of every next token.
    /// - Throws: ``LanguageModelError/invalidState(expected:actual:)`` for a state of the wrong shape.
    public func nextTokenProbabilities(after tokenID: Int32, state: inout Tensor<Float>) throws -> [Float] {
        var logits = try nextTokenLogits(after: tokenID, state: &state)
        logits.withUnsafeMutableBufferPointer { values in
            guard let base = values.baseAddress else { return }
            Kernels.softmax(base, rowCount: 1, rowLength: values.count)
        }
        return logits
    }

    /// Like ``nextTokenProbabilities(after:state:)`` but returns the decoder's logits.
    public func nextTokenLogits(after tokenID: Int32, state: inout Tensor<Float>) throws -> [Float] {
        guard state.shape == configuration.stateShape else {
            throw LanguageModelError.invalidState(expected: configuration.stateShape, actual: state.shape)
        }
        let id = (0..<Int32(vocabulary.count)).contains(tokenID) ? tokenID : vocabulary.unknownID
        let input = embedding[Int(id)].reshaped([1, 1, configuration.embeddingSize])
        let batchState = state.reshaped(rnn.stateShape(batch: 1))
        let (output, finalState) = rnn.forward(input, initialState: batchState)
        state = finalState.reshaped(configuration.stateShape)
        return decode(output.reshaped([1, configuration.hiddenSize]))
    }

    /// Runs whole sequences: `ids` `[T, B]` (time-major, as PyTorch's default) from `initialState`
    /// (`[layers, components, B, hidden]`, nil = zeros). Returns logits `[T, B, vocabulary]` and the final state.
    public func logits(for ids: Tensor<Int32>, initialState: Tensor<Float>? = nil) -> (logits: Tensor<Float>, finalState: Tensor<Float>) {
        let steps = ids.shape[0], batch = ids.shape[1]
        let (output, finalState) = rnn.forward(tokens: knownIDs(ids), embedding: embedding, initialState: initialState)
        let logits = decode(output.reshaped([steps * batch, configuration.hiddenSize]))
        return (Tensor(shape: [steps, batch, vocabulary.count], scalars: logits), finalState)
    }

    /// `ids` with those out of range replaced by the unknown token's.
    func knownIDs(_ ids: Tensor<Int32>) -> Tensor<Int32> {
        let count = vocabulary.count, unknown = vocabulary.unknownID
        return Tensor(shape: ids.shape, scalars: ids.scalars.map { $0 >= 0 && Int($0) < count ? $0 : unknown })
    }

    /// Decoder logits for hidden rows `[n, hidden]`, row-major `[n, vocabulary]` (one row, a
    /// prediction step, is a GEMV that reads the weight once: ``Linear/forward(_:rows:weight:bias:inputSize:outputSize:into:)``).
    func decode(_ hidden: Tensor<Float>) -> [Float] {
        decoder(hidden).scalars
    }
}
