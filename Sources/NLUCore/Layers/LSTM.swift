import CKernels

/// A multi-layer long short-term memory network with exactly PyTorch's `nn.LSTM` semantics.
///
/// For each step, per layer: `gates = x W_ihᵀ + b_ih + h W_hhᵀ + b_hh`, split into i, f, g, o;
/// `c' = σ(f) c + σ(i) tanh(g)`, `h' = σ(o) tanh(c')`. The input projection of all steps is one
/// GEMM, the recurrent projection one GEMM per step, and the gate math one fused loop.
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

    /// One layer over all steps (see ``RecurrentDriver/LayerForward`` for the buffers).
    static func forwardLayer(_ layer: RecurrentDriver.LayerForward) {
        let steps = layer.steps, batch = layer.batch, hiddenSize = layer.hiddenSize
        let width = 4 * hiddenSize, stepSize = batch * hiddenSize
        guard let cells = layer.cells else { preconditionFailure("LSTM needs a cell buffer") }
        // Input projection for every step at once, on top of both biases.
        layer.projectInputs(gateWidth: width, addingHiddenBias: true)
        let packed = layer.packedHiddenWeight(gateWidth: width, forward: true)
        for step in 0..<steps {
            let previousHidden = layer.hidden + step * stepSize, previousCells = cells + step * stepSize
            let nextHidden = previousHidden + stepSize, nextCells = previousCells + stepSize
            let gates = layer.gates + step * batch * width
            RecurrentMath.multiply(previousHidden, rows: batch, inner: hiddenSize, weight: layer.hiddenWeight,
                                   transposed: true, columns: width, into: gates, beta: 1, packed: packed)
            // Activations, cell and hidden update in one vectorized pass.
            nlukit_lstm_cell_forward(gates, previousCells, nextCells, nextHidden, batch, hiddenSize)
        }
    }

    /// Back-propagation through one layer (see ``RecurrentDriver/LayerBackward``).
    static func backwardLayer(_ layer: RecurrentDriver.LayerForward, _ gradient: RecurrentDriver.LayerBackward) {
        let steps = layer.steps, batch = layer.batch, hiddenSize = layer.hiddenSize
        let width = 4 * hiddenSize, stepSize = batch * hiddenSize
        guard let cells = layer.cells, let cellGradient = gradient.cellGradient else {
            preconditionFailure("LSTM needs cell buffers")
        }
        let gateGradients = UnsafeMutablePointer<Float>.allocate(capacity: max(1, steps * batch * width))
        defer { gateGradients.deallocate() }
        let hiddenGradient = gradient.hiddenGradient
        let packed = layer.packedHiddenWeight(gateWidth: width, forward: false)

        for step in stride(from: steps - 1, through: 0, by: -1) {
            let gates = layer.gates + step * batch * width
            let dGates = gateGradients + step * batch * width
            let previousCells = cells + step * stepSize, nextCells = previousCells + stepSize
            let upstream = gradient.outputGradient + step * stepSize
            // d(gates) and d(c_{t-1}) in one vectorized pass (reads d(h_t) before the product below replaces it).
            nlukit_lstm_cell_backward(gates, previousCells, nextCells, upstream, hiddenGradient, cellGradient, dGates,
                                      batch, hiddenSize)
            // d(h_{t-1}) = d(gates) · W_hh
            RecurrentMath.multiply(dGates, rows: batch, inner: width, weight: layer.hiddenWeight, transposed: false,
                                   columns: hiddenSize, into: hiddenGradient, beta: 0, packed: packed)
        }
        layer.accumulateParameterGradients(gradient, gateWidth: width, inputGates: gateGradients, hiddenGates: gateGradients)
    }
}
