/// One layer's per-step forward work once its input projection is in `gates`: the recurrent
/// product and the cell (``LSTM/ForwardSteps``, ``GRU/ForwardSteps``). Steps run in order, from
/// step 0, by the layer loop in ``RecurrentDriver`` or by ``RecurrentPipeline``.
protocol RecurrentForwardSteps: AnyObject {
    func run(step: Int)
}

/// One layer's per-step backward work, from the last step down: the cell's backward pass and the
/// recurrent product (``LSTM/BackwardSteps``, ``GRU/BackwardSteps``); then its parameter gradients.
protocol RecurrentBackwardSteps: AnyObject {
    var layer: RecurrentDriver.LayerForward { get }
    var gradient: RecurrentDriver.LayerBackward { get }
    /// Gate blocks per layer (the width of the gate gradients is this times H).
    var gateCount: Int { get }
    /// The pre-activation gate gradients `[T, B, gates × H]` on the input side and on the hidden
    /// side (the same buffer for an LSTM, whose two sides share their gates).
    var inputGates: UnsafeMutablePointer<Float> { get }
    var hiddenGates: UnsafeMutablePointer<Float> { get }
    /// The same gradients gathered step by step for the parameter gradients, or nil (the same
    /// instance for an LSTM's two sides).
    var inputPanels: GateGradientPanels? { get }
    var hiddenPanels: GateGradientPanels? { get }
    func run(step: Int)
}

extension RecurrentBackwardSteps {
    /// The input-side gate gradients of `step` (`[B, gates × H]`), once `run(step:)` has written
    /// them: d(input) of the step is these times `W_ih`.
    func inputGateGradients(step: Int) -> UnsafePointer<Float> {
        UnsafePointer(inputGates + step * layer.batch * gateCount * layer.hiddenSize)
    }

    /// After the last step: adds the weight and bias gradients, and writes d(input) unless the
    /// caller already wrote it step by step.
    func finish(writingInputGradient: Bool) {
        layer.accumulateParameterGradients(gradient, gateWidth: gateCount * layer.hiddenSize, inputGates: inputGates,
                                           hiddenGates: hiddenGates, inputPanels: inputPanels, hiddenPanels: hiddenPanels,
                                           writingInputGradient: writingInputGradient)
    }
}

extension RecurrentCell {
    /// Whether the whole-sequence input projection includes `b_hh` (an LSTM's); a GRU adds its
    /// `b_hh` per step, inside the reset product.
    var inputProjectionAddsHiddenBias: Bool { self == .lstm }

    func forwardSteps(_ layer: RecurrentDriver.LayerForward) -> any RecurrentForwardSteps {
        switch self {
        case .lstm: LSTM.ForwardSteps(layer)
        case .gru: GRU.ForwardSteps(layer)
        }
    }

    func backwardSteps(_ layer: RecurrentDriver.LayerForward, _ gradient: RecurrentDriver.LayerBackward)
        -> any RecurrentBackwardSteps {
        switch self {
        case .lstm: LSTM.BackwardSteps(layer, gradient)
        case .gru: GRU.BackwardSteps(layer, gradient)
        }
    }
}
