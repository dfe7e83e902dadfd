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

    /// The per-step part of one layer's forward pass, once the input projection (with `b_ih` only:
    /// `b_hn` sits inside r ∘ (...)) is in `gates`: the recurrent product and the cell.
    final class ForwardSteps: RecurrentForwardSteps {
        let layer: RecurrentDriver.LayerForward
        let candidates: UnsafeMutablePointer<Float>
        let packed: PackedMatrix?
        /// `h W_hhᵀ + b_hh` of the current step, `[B, 3H]`.
        let hiddenGates: UnsafeMutablePointer<Float>

        init(_ layer: RecurrentDriver.LayerForward) {
            guard let candidates = layer.candidates else { preconditionFailure("GRU needs a candidate buffer") }
            self.layer = layer
            self.candidates = candidates
            packed = layer.packedHiddenWeight(gateWidth: 3 * layer.hiddenSize, forward: true)
            hiddenGates = .allocate(capacity: max(1, layer.batch * 3 * layer.hiddenSize))
        }

        deinit { hiddenGates.deallocate() }

        func run(step: Int) {
            let batch = layer.batch, hiddenSize = layer.hiddenSize, width = 3 * hiddenSize, stepSize = batch * hiddenSize
            let previousHidden = layer.hidden + step * stepSize
            RecurrentMath.fillRows(hiddenGates, rows: batch, columns: width, with: layer.hiddenBias, plus: nil)
            RecurrentMath.multiply(previousHidden, rows: batch, inner: hiddenSize, weight: layer.hiddenWeight,
                                   transposed: true, columns: width, into: hiddenGates, beta: 1, packed: packed)
            // Activations, candidate and hidden update in one vectorized pass.
            nlukit_gru_cell_forward(layer.gates + step * batch * width, hiddenGates, previousHidden,
                                    candidates + step * stepSize, previousHidden + stepSize, batch, hiddenSize)
            layer.transposeHidden(step: step)
        }
    }

    /// The per-step part of one layer's backward pass (from the last step down), then its parameter gradients.
    final class BackwardSteps: RecurrentBackwardSteps {
        let layer: RecurrentDriver.LayerForward
        let gradient: RecurrentDriver.LayerBackward
        let candidates: UnsafePointer<Float>
        let packed: PackedMatrix?
        let gateCount = 3
        /// d(pre-activation gates) `[T, B, 3H]` on the input side and on the hidden side.
        let inputGates: UnsafeMutablePointer<Float>
        let hiddenGates: UnsafeMutablePointer<Float>
        /// The two sides' gate gradients gathered for the parameter gradients.
        let inputPanels: GateGradientPanels?
        let hiddenPanels: GateGradientPanels?

        init(_ layer: RecurrentDriver.LayerForward, _ gradient: RecurrentDriver.LayerBackward) {
            guard let candidates = layer.candidates else { preconditionFailure("GRU needs a candidate buffer") }
            self.layer = layer
            self.gradient = gradient
            self.candidates = UnsafePointer(candidates)
            packed = layer.packedHiddenWeight(gateWidth: 3 * layer.hiddenSize, forward: false)
            let count = max(1, layer.steps * layer.batch * 3 * layer.hiddenSize)
            inputGates = .allocate(capacity: count)
            hiddenGates = .allocate(capacity: count)
            inputPanels = GateGradientPanels(layer, width: 3 * layer.hiddenSize, summingTokens: true)
            hiddenPanels = GateGradientPanels(layer, width: 3 * layer.hiddenSize, summingTokens: false)
        }

        deinit {
            inputGates.deallocate()
            hiddenGates.deallocate()
        }

        func run(step: Int) {
            let batch = layer.batch, hiddenSize = layer.hiddenSize, width = 3 * hiddenSize, stepSize = batch * hiddenSize
            let dHiddenGates = hiddenGates + step * batch * width
            // d(gates) and the direct part of d(h_{t-1}) in one vectorized pass.
            nlukit_gru_cell_backward(layer.gates + step * batch * width, candidates + step * stepSize,
                                     layer.hidden + step * stepSize, gradient.outputGradient + step * stepSize,
                                     gradient.hiddenGradient, inputGates + step * batch * width, dHiddenGates,
                                     batch, hiddenSize)
            inputPanels?.gather(step: step, from: inputGates + step * batch * width)
            hiddenPanels?.gather(step: step, from: dHiddenGates)
            // d(h_{t-1}) = dh ∘ z + d(hidden gates) · W_hh
            RecurrentMath.multiply(dHiddenGates, rows: batch, inner: width, weight: layer.hiddenWeight, transposed: false,
                                   columns: hiddenSize, into: gradient.hiddenGradient, beta: 1, packed: packed)
        }
    }
}
