/// The kind of recurrent cell of a ``RecurrentNetwork``: its gate count and what its state holds.
public enum RecurrentCell: String, Sendable, Codable, CaseIterable {
    /// Long short-term memory: gates i, f, g, o; state h and c.
    case lstm
    /// Gated recurrent unit: gates r, z, n; state h.
    case gru

    /// Gate blocks stacked in each weight matrix (4 for LSTM, 3 for GRU).
    public var gateCount: Int { self == .lstm ? 4 : 3 }
    /// Tensors per layer in the state: 2 for LSTM (h, c), 1 for GRU (h).
    public var stateComponentCount: Int { self == .lstm ? 2 : 1 }
}

/// A stack of recurrent layers with exactly PyTorch's `nn.LSTM` / `nn.GRU` semantics
/// (time-major input, `batch_first=False`): ``LSTM`` and ``GRU``.
///
/// **State layout.** A state is a tensor `[layers, components, batch, hidden]`: for each layer
/// (bottom first) `h` at component 0 and, for an LSTM, `c` at component 1. That is PyTorch's
/// `(h_n, c_n)` stacked on a new second axis. A `nil` state means zeros (a new sequence).
///
///     let lstm = LSTM(inputSize: 8, hiddenSize: 16, layerCount: 2, using: &generator)
///     let (output, state) = lstm.forward(input)          // input [T, B, 8] -> output [T, B, 16]
///     let (next, _) = lstm.forward(more, initialState: state)   // continues the sequence
public protocol RecurrentNetwork: Sendable {
    /// The cell kind (gate layout and state components).
    static var cell: RecurrentCell { get }
    /// Features of each input step.
    var inputSize: Int { get }
    /// Features of the hidden state (and of each output step).
    var hiddenSize: Int { get }
    /// The layers' parameters, bottom layer first.
    var layers: [RecurrentLayerWeights] { get set }
    /// A network over the given layers; throws ``LayerWeightsError`` naming the first tensor whose
    /// shape does not match `inputSize` and `hiddenSize`.
    init(inputSize: Int, hiddenSize: Int, layers: [RecurrentLayerWeights]) throws
}

/// What a training forward pass keeps for ``RecurrentNetwork/backward(_:outputGradient:finalStateGradient:)``.
public struct RecurrentTrace: Sendable {
    let steps: Int
    let batch: Int
    /// Per layer: its input `[T, B, in]` (after inter-layer dropout).
    var layerInputs: [Tensor<Float>] = []
    /// Per layer: `h` for steps -1..<T, `[T + 1, B, H]` (slot 0 is the initial state).
    var hidden: [Tensor<Float>] = []
    /// Per layer (LSTM): `c` for steps -1..<T, `[T + 1, B, H]`.
    var cells: [Tensor<Float>] = []
    /// Per layer: activated gates `[T, B, gates × H]`.
    var gates: [Tensor<Float>] = []
    /// Per layer (GRU): `W_hn h + b_hn`, `[T, B, H]`, needed for the reset gate's gradient.
    var hiddenCandidates: [Tensor<Float>] = []
    /// Per layer: hᵀ `[H, (T + 1)·B]` for the weight gradients, where the backward pass gathers
    /// ``GateGradientPanels`` (nil elsewhere).
    var hiddenTransposed: [Tensor<Float>?] = []
    /// Per layer: the inverted-dropout mask applied to its input (layers above the first, and the
    /// looked-up tokens of the first), or nil.
    var dropoutMasks: [Tensor<Float>?] = []
    /// The token ids `[T, B]` of a forward pass over tokens, and the rows of their embedding table.
    var tokens: Tensor<Int32>? = nil
    var embeddingVocabulary = 0
    /// Whether the first layer's input is the embedding table itself, projected once per token
    /// (`layerInputs[0]` is then `[vocabulary, in]`), rather than the looked-up rows.
    var foldsEmbedding = false
}

/// Gradients of a loss with respect to a recurrent network's inputs, parameters and initial state.
public struct RecurrentGradients: Sendable {
    /// `[T, B, inputSize]`; after a forward pass over tokens, the embedding table's gradient,
    /// `[vocabulary, inputSize]`.
    public var input: Tensor<Float>
    /// Per layer, the same shapes as ``RecurrentNetwork/layers``.
    public var layers: [RecurrentLayerWeights]
    /// `[layers, components, B, H]`.
    public var initialState: Tensor<Float>
}

extension RecurrentNetwork {
    /// The number of stacked layers.
    public var layerCount: Int { layers.count }

    /// The state shape for `batch` sequences: `[layers, components, batch, hidden]`.
    public func stateShape(batch: Int) -> [Int] {
        [layers.count, Self.cell.stateComponentCount, batch, hiddenSize]
    }

    /// A network with PyTorch's default initialization (uniform in ±1/√hidden).
    ///
    ///     var generator = SplitMix64(seed: 1)
    ///     let gru = GRU(inputSize: 32, hiddenSize: 64, layerCount: 2, using: &generator)
    public init<G: RandomNumberGenerator>(inputSize: Int, hiddenSize: Int, layerCount: Int, using generator: inout G) {
        let layers = (0..<max(1, layerCount)).map { index in
            RecurrentLayerWeights(gateCount: Self.cell.gateCount, inputSize: index == 0 ? inputSize : hiddenSize,
                                  hiddenSize: hiddenSize, using: &generator)
        }
        // The shapes are built to match, so this cannot throw.
        do { try self.init(inputSize: inputSize, hiddenSize: hiddenSize, layers: layers) } catch {
            preconditionFailure("internal error: \(error)")
        }
    }

    /// Loads the layers from named tensors in PyTorch's `state_dict` naming (`weight_ih_l0`, ...),
    /// each name prefixed by `prefix` (e.g. `"rnn."`).
    /// - Throws: ``LayerWeightsError`` naming the missing or misshapen tensor.
    public init(inputSize: Int, hiddenSize: Int, layerCount: Int, prefix: String = "",
                tensor: (String) throws -> Tensor<Float>?) throws {
        guard layerCount >= 1 else { throw LayerWeightsError.noLayers }
        let rows = Self.cell.gateCount * hiddenSize
        var layers: [RecurrentLayerWeights] = []
        for index in 0..<layerCount {
            let names = RecurrentLayerWeights.parameterNames(layer: index)
            let shapes = [[rows, index == 0 ? inputSize : hiddenSize], [rows, hiddenSize], [rows], [rows]]
            var found: [Tensor<Float>] = []
            for (name, shape) in zip(names, shapes) {
                guard let value = try tensor(prefix + name) else { throw LayerWeightsError.missingTensor(prefix + name) }
                guard value.shape == shape else {
                    throw LayerWeightsError.wrongShape(tensor: prefix + name, expected: shape, actual: value.shape)
                }
                found.append(value)
            }
            layers.append(RecurrentLayerWeights(inputWeight: found[0], hiddenWeight: found[1],
                                                inputBias: found[2], hiddenBias: found[3]))
        }
        try self.init(inputSize: inputSize, hiddenSize: hiddenSize, layers: layers)
    }

    /// Every parameter by its PyTorch `state_dict` name, prefixed by `prefix`.
    public func namedParameters(prefix: String = "") -> [(name: String, tensor: Tensor<Float>)] {
        layers.enumerated().flatMap { index, layer in
            zip(RecurrentLayerWeights.parameterNames(layer: index), layer.tensors).map { (prefix + $0, $1) }
        }
    }

    /// Checks that every layer's tensors have the shapes `inputSize` and `hiddenSize` call for.
    static func validate(inputSize: Int, hiddenSize: Int, layers: [RecurrentLayerWeights]) throws {
        guard !layers.isEmpty else { throw LayerWeightsError.noLayers }
        let rows = cell.gateCount * hiddenSize
        for (index, layer) in layers.enumerated() {
            let expected = [[rows, index == 0 ? inputSize : hiddenSize], [rows, hiddenSize], [rows], [rows]]
            for (name, (value, shape)) in zip(RecurrentLayerWeights.parameterNames(layer: index), zip(layer.tensors, expected))
            where value.shape != shape {
                throw LayerWeightsError.wrongShape(tensor: name, expected: shape, actual: value.shape)
            }
        }
    }

    /// Runs the network over a whole sequence batch.
    ///
    /// - Parameters:
    ///   - input: `[T, B, inputSize]`.
    ///   - initialState: `[layers, components, B, hidden]`, or nil for zeros.
    /// - Returns: the top layer's `h` at every step, `[T, B, hidden]`, and the state after the last step.
    public func forward(_ input: Tensor<Float>, initialState: Tensor<Float>? = nil) -> (output: Tensor<Float>, finalState: Tensor<Float>) {
        var generator = SplitMix64(seed: 0)  // unused: no dropout at inference
        let result = RecurrentDriver.run(self, input: .features(input), initialState: initialState, dropout: 0,
                                         generator: &generator, keepTrace: false)
        return (result.output, result.finalState)
    }

    /// Runs the network over token ids `[T, B]` looked up in an embedding `table`
    /// (`[vocabulary, inputSize]`, ids in range): the same as ``forward(_:initialState:)`` on the
    /// looked-up rows, and when the table has fewer rows than there are tokens, the first layer
    /// projects each table row once instead of each token.
    public func forward(tokens ids: Tensor<Int32>, embedding table: Tensor<Float>,
                        initialState: Tensor<Float>? = nil) -> (output: Tensor<Float>, finalState: Tensor<Float>) {
        var generator = SplitMix64(seed: 0)  // unused: no dropout at inference
        let result = RecurrentDriver.run(self, input: .tokens(ids, table: table), initialState: initialState, dropout: 0,
                                         generator: &generator, keepTrace: false)
        return (result.output, result.finalState)
    }

    /// Runs one step for a batch: `input` `[B, inputSize]`, `state` `[layers, components, B, hidden]`
    /// updated in place; returns the top layer's new `h`, `[B, hidden]`.
    public func step(_ input: Tensor<Float>, state: inout Tensor<Float>) -> Tensor<Float> {
        let batch = input.shape[0]
        let (output, finalState) = forward(input.reshaped([1, batch, inputSize]), initialState: state)
        state = finalState
        return output.reshaped([batch, hiddenSize])
    }

    /// The training forward pass: like ``forward(_:initialState:)``, with inverted dropout of
    /// probability `dropout` on the inputs of every layer above the first (PyTorch's `dropout=`),
    /// and a trace for ``backward(_:outputGradient:finalStateGradient:)``.
    public func forwardForTraining(_ input: Tensor<Float>, initialState: Tensor<Float>? = nil, dropout: Float = 0,
                                   generator: inout SplitMix64)
        -> (output: Tensor<Float>, finalState: Tensor<Float>, trace: RecurrentTrace) {
        let result = RecurrentDriver.run(self, input: .features(input), initialState: initialState, dropout: dropout,
                                         generator: &generator, keepTrace: true)
        return (result.output, result.finalState, result.trace)
    }

    /// The training forward pass over token ids `[T, B]` looked up in an embedding `table`
    /// (`[vocabulary, inputSize]`, ids in range): as ``forwardForTraining(_:initialState:dropout:generator:)``
    /// on the looked-up rows, with the same inverted dropout on those rows too (the embedding
    /// dropout of PyTorch's word_language_model). ``backward(_:outputGradient:finalStateGradient:)``
    /// then returns the table's gradient as its `input`.
    ///
    /// Without dropout, and when the table has fewer rows than the batch has tokens (a character
    /// model), the first layer projects each table row once instead of each token: the same
    /// result with a fraction of the first layer's input-side work.
    public func forwardForTraining(tokens ids: Tensor<Int32>, embedding table: Tensor<Float>,
                                   initialState: Tensor<Float>? = nil, dropout: Float = 0, generator: inout SplitMix64)
        -> (output: Tensor<Float>, finalState: Tensor<Float>, trace: RecurrentTrace) {
        let result = RecurrentDriver.run(self, input: .tokens(ids, table: table), initialState: initialState,
                                         dropout: dropout, generator: &generator, keepTrace: true)
        return (result.output, result.finalState, result.trace)
    }

    /// Back-propagation through time over a traced forward pass.
    ///
    /// - Parameters:
    ///   - outputGradient: d(loss)/d(output), `[T, B, hidden]`.
    ///   - finalStateGradient: d(loss)/d(final state), or nil for zeros (truncated BPTT).
    public func backward(_ trace: RecurrentTrace, outputGradient: Tensor<Float>,
                         finalStateGradient: Tensor<Float>? = nil) -> RecurrentGradients {
        RecurrentDriver.backward(self, trace: trace, outputGradient: outputGradient, finalStateGradient: finalStateGradient)
    }
}

import Foundation
