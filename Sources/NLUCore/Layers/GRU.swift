import CKernels

/// A multi-layer gated recurrent unit network with exactly PyTorch's `nn.GRU` semantics.
///
/// For each step, per layer: `r = σ(W_ir x + b_ir + W_hr h + b_hr)`, `z = σ(W_iz x + b_iz + W_hz h + b_hz)`,
/// `n = tanh(W_in x + b_in + r ∘ (W_hn h + b_hn))` (the hidden bias inside the reset product),
/// `h' = (1 - z) ∘ n + z ∘ h`. State: `[layers, 1, batch, hidden]`.
///
///     var generator = SplitMix64(seed: 42)
///     let gru = GRU(inputSize: 32, hiddenSize: 64, layerCount: 1, using: &generator)
///     var state = Tensor<Float>(shape: gru.stateShape(batch: 1))
///     let h = gru.step(Tensor(shape: [1, 32]), state: &state)   // [1, 64]
public struct GRU: RecurrentNetwork {
    public static let cell = RecurrentCell.gru
    public let inputSize: Int
    public let hiddenSize: Int
    public var layers: [RecurrentLayerWeights]

    public init(inputSize: Int, hiddenSize: Int, layers: [RecurrentLayerWeights]) throws {
        try Self.validate(inputSize: inputSize, hiddenSize: hiddenSize, layers: layers)
        self.inputSize = inputSize
        self.hiddenSize = hiddenSize
        self.layers = layers
    }

    /// One layer over all steps (see ``RecurrentDriver/LayerForward`` for the buffers).
    static func forwardLayer(_ layer: RecurrentDriver.LayerForward) {
        let steps = layer.steps, batch = layer.batch, hiddenSize = layer.hiddenSize
        let width = 3 * hiddenSize, stepSize = batch * hiddenSize
        guard let candidates = layer.candidates else { preconditionFailure("GRU needs a candidate buffer") }
        // Input projection for every step at once; b_hh joins per step because b_hn sits inside r ∘ (...).
        layer.projectInputs(gateWidth: width, addingHiddenBias: false)
        let hiddenGates = UnsafeMutablePointer<Float>.allocate(capacity: batch * width)
        defer { hiddenGates.deallocate() }
        let packed = layer.packedHiddenWeight(gateWidth: width, forward: true)
        for step in 0..<steps {
            let previousHidden = layer.hidden + step * stepSize, nextHidden = previousHidden + stepSize
            let gates = layer.gates + step * batch * width
            RecurrentMath.fillRows(hiddenGates, rows: batch, columns: width, with: layer.hiddenBias, plus: nil)
            RecurrentMath.multiply(previousHidden, rows: batch, inner: hiddenSize, weight: layer.hiddenWeight,
                                   transposed: true, columns: width, into: hiddenGates, beta: 1, packed: packed)
            // Activations, candidate and hidden update in one vectorized pass.
            nlukit_gru_cell_forward(gates, hiddenGates, previousHidden, candidates + step * stepSize, nextHidden,
                                    batch, hiddenSize)
        }
    }

    /// Back-propagation through one layer (see ``RecurrentDriver/LayerBackward``).
    static func backwardLayer(_ layer: RecurrentDriver.LayerForward, _ gradient: RecurrentDriver.LayerBackward) {
        let steps = layer.steps, batch = layer.batch, hiddenSize = layer.hiddenSize
        let width = 3 * hiddenSize, stepSize = batch * hiddenSize
        guard let candidates = layer.candidates else { preconditionFailure("GRU needs a candidate buffer") }
        let inputGateGradients = UnsafeMutablePointer<Float>.allocate(capacity: max(1, steps * batch * width))
        let hiddenGateGradients = UnsafeMutablePointer<Float>.allocate(capacity: max(1, steps * batch * width))
        defer { inputGateGradients.deallocate(); hiddenGateGradients.deallocate() }
        let hiddenGradient = gradient.hiddenGradient

        let packed = layer.packedHiddenWeight(gateWidth: width, forward: false)
        for step in stride(from: steps - 1, through: 0, by: -1) {
            let gates = layer.gates + step * batch * width
            let dInputGates = inputGateGradients + step * batch * width
            let dHiddenGates = hiddenGateGradients + step * batch * width
            let previousHidden = layer.hidden + step * stepSize
            let upstream = gradient.outputGradient + step * stepSize
            // d(gates) and the direct part of d(h_{t-1}) in one vectorized pass.
            nlukit_gru_cell_backward(gates, candidates + step * stepSize, previousHidden, upstream, hiddenGradient,
                                     dInputGates, dHiddenGates, batch, hiddenSize)
            // d(h_{t-1}) = dh ∘ z + d(hidden gates) · W_hh
            RecurrentMath.multiply(dHiddenGates, rows: batch, inner: width, weight: layer.hiddenWeight, transposed: false,
                                   columns: hiddenSize, into: hiddenGradient, beta: 1, packed: packed)
        }
        layer.accumulateParameterGradients(gradient, gateWidth: width, inputGates: inputGateGradients,
                                           hiddenGates: hiddenGateGradients)
    }
}
