import CKernels

/// A multi-layer long short-term memory network with exactly PyTorch's `nn.LSTM` semantics.
///
/// For each step, per layer: `gates = x W_ihᵀ + b_ih + h W_hhᵀ + b_hh`, split into i, f, g, o;
/// `c' = σ(f) c + σ(i) tanh(g)`, `h' = σ(o) tanh(c')`. The input projection of all steps is one
/// GEMM, the recurrent projection one GEMM per step, and the gate math one fused loop; stacked
/// layers on one or two threads run two at a time (``RecurrentPipeline``).
/// State: `[layers, 2, batch, hidden]` with `h` at component 0 and `c` at component 1.
///
///     var generator = SplitMix64(seed: 42)
///     let lstm = LSTM(inputSize: 32, hiddenSize: 64, layerCount: 2, using: &generator)
///     let (output, state) = lstm.forward(Tensor(shape: [10, 4, 32]))   // [10, 4, 64], [2, 2, 4, 64]
public struct LSTM: RecurrentNetwork {
    public static let cell = RecurrentCell.lstm
    public let inputSize: Int
    public let hiddenSize: Int
    public var layers: [RecurrentLayerWeights]

    public init(inputSize: Int, hiddenSize: Int, layers: [RecurrentLayerWeights]) throws {
        try Self.validate(inputSize: inputSize, hiddenSize: hiddenSize, layers: layers)
        self.inputSize = inputSize
        self.hiddenSize = hiddenSize
        self.layers = layers
    }

    /// The per-step part of one layer's forward pass, once the input projection (with both biases)
    /// is in `gates`: the recurrent product and the cell.
    final class ForwardSteps: RecurrentForwardSteps {
        let layer: RecurrentDriver.LayerForward
        let cells: UnsafeMutablePointer<Float>
        let packed: PackedMatrix?

        init(_ layer: RecurrentDriver.LayerForward) {
            guard let cells = layer.cells else { preconditionFailure("LSTM needs a cell buffer") }
            self.layer = layer
            self.cells = cells
            packed = layer.packedHiddenWeight(gateWidth: 4 * layer.hiddenSize, forward: true)
        }

        func run(step: Int) {
            let batch = layer.batch, hiddenSize = layer.hiddenSize, width = 4 * hiddenSize, stepSize = batch * hiddenSize
            let previousHidden = layer.hidden + step * stepSize, previousCells = cells + step * stepSize
            let gates = layer.gates + step * batch * width
            RecurrentMath.multiply(previousHidden, rows: batch, inner: hiddenSize, weight: layer.hiddenWeight,
                                   transposed: true, columns: width, into: gates, beta: 1, packed: packed)
            // Activations, cell and hidden update in one vectorized pass.
            nlukit_lstm_cell_forward(gates, previousCells, previousCells + stepSize, previousHidden + stepSize, batch, hiddenSize)
            layer.transposeHidden(step: step)
        }
    }

    /// The per-step part of one layer's backward pass (from the last step down), then its parameter gradients.
    final class BackwardSteps: RecurrentBackwardSteps {
        let layer: RecurrentDriver.LayerForward
        let gradient: RecurrentDriver.LayerBackward
        let cells: UnsafePointer<Float>
        let cellGradient: UnsafeMutablePointer<Float>
        let packed: PackedMatrix?
        let gateCount = 4
        /// d(pre-activation gates) `[T, B, 4H]`: the input and hidden sides share them.
        let gateGradients: UnsafeMutablePointer<Float>
        var inputGates: UnsafeMutablePointer<Float> { gateGradients }
        var hiddenGates: UnsafeMutablePointer<Float> { gateGradients }
        /// The gate gradients gathered for the parameter gradients (both sides share them).
        let panels: GateGradientPanels?
        var inputPanels: GateGradientPanels? { panels }
        var hiddenPanels: GateGradientPanels? { panels }

        init(_ layer: RecurrentDriver.LayerForward, _ gradient: RecurrentDriver.LayerBackward) {
            guard let cells = layer.cells, let cellGradient = gradient.cellGradient else {
                preconditionFailure("LSTM needs cell buffers")
            }
            self.layer = layer
            self.gradient = gradient
            self.cells = UnsafePointer(cells)
            self.cellGradient = cellGradient
            packed = layer.packedHiddenWeight(gateWidth: 4 * layer.hiddenSize, forward: false)
            gateGradients = .allocate(capacity: max(1, layer.steps * layer.batch * 4 * layer.hiddenSize))
            panels = GateGradientPanels(layer, width: 4 * layer.hiddenSize, summingTokens: true)
        }

        deinit { gateGradients.deallocate() }

        func run(step: Int) {
            let batch = layer.batch, hiddenSize = layer.hiddenSize, width = 4 * hiddenSize, stepSize = batch * hiddenSize
            let gates = layer.gates + step * batch * width
            let dGates = gateGradients + step * batch * width
            let previousCells = cells + step * stepSize
            // d(gates) and d(c_{t-1}) in one vectorized pass (reads d(h_t) before the product below replaces it).
            nlukit_lstm_cell_backward(gates, previousCells, previousCells + stepSize, gradient.outputGradient + step * stepSize,
                                      gradient.hiddenGradient, cellGradient, dGates, batch, hiddenSize)
            panels?.gather(step: step, from: dGates)
            // d(h_{t-1}) = d(gates) · W_hh
            RecurrentMath.multiply(dGates, rows: batch, inner: width, weight: layer.hiddenWeight, transposed: false,
                                   columns: hiddenSize, into: gradient.hiddenGradient, beta: 0, packed: packed)
        }
    }
}
