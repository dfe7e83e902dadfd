import Foundation
import NLUCore

/// Core ML's recurrent layers: `simpleRecurrent`, `gru`, `uniDirectionalLSTM` and `biDirectionalLSTM`, with the
/// equations of NeuralNetwork.proto (they differ from PyTorch's: Core ML's GRU applies the reset gate before the
/// recurrent product, and its LSTM has one bias and gate order i, f, o, z).
///
/// Input `[Seq, Batch, C, 1, 1]`; optional state inputs (`h_in`, and `c_in` for LSTMs) of `Batch × H` values —
/// missing state means zeros, as in the seed's first step. Outputs: the sequence `[Seq, Batch, H, 1, 1]` (or the
/// last step `[1, Batch, H, 1, 1]`), then the final states `[1, Batch, H, 1, 1]`.
enum RecurrentLayers {
    /// The weights of one direction: `gates` blocks of H rows stacked in Core ML's gate order.
    struct Direction: Sendable {
        let gates: Int
        let hidden: Int
        /// `x·Wᵀ + b` for all steps at once.
        let input: Linear.Packed
        /// `h·Rᵀ` for the gates whose recurrent product reads `h` itself.
        let recurrent: Linear.Packed
        /// GRU only: `(r ⊙ h)·R_oᵀ`, the output gate's recurrent product, taken after the reset gate.
        let resetRecurrent: Linear.Packed?
        let activations: [Activation]
        let cellClip: Float?
    }

    enum Cell: Sendable { case simple, gru, lstm }

    static func simpleRecurrent(_ p: CoreML_Specification_SimpleRecurrentLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...2, outputs: 1...2)
        let (c, h) = (try context.checkedSize(p.inputVectorSize, "inputVectorSize"), try context.checkedSize(p.outputVectorSize, "outputVectorSize"))
        let w = try context.weights.floats(p.weightMatrix, field: "weightMatrix", count: h * c, channels: h)
        let r = try context.weights.floats(p.recursionMatrix, field: "recursionMatrix", count: h * h, channels: h)
        let b = p.hasBiasVector_p ? try context.weights.floats(p.biasVector, field: "biasVector", count: h) : [Float](repeating: 0, count: h)
        let direction = Direction(gates: 1, hidden: h, input: Linear.Packed(weight: w, outputs: h, inputs: c, bias: b),
                                  recurrent: Linear.Packed(weight: r, outputs: h, inputs: h, bias: nil), resetRecurrent: nil,
                                  activations: [try Activation(p.activation, context, inRecurrentLayer: true)], cellClip: nil)
        return layer(context, cell: .simple, directions: [direction], inputSize: c, sequenceOutput: p.sequenceOutput,
                     reverse: p.reverseInput)
    }

    static func gru(_ p: CoreML_Specification_GRULayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...2, outputs: 1...2)
        let (c, h) = (try context.checkedSize(p.inputVectorSize, "inputVectorSize"), try context.checkedSize(p.outputVectorSize, "outputVectorSize"))
        let decode = { (wp: CoreML_Specification_WeightParams, field: String, count: Int) in
            try context.weights.floats(wp, field: field, count: count, channels: h)
        }
        // Gate order z (update), r (reset), o (output).
        let w = try decode(p.updateGateWeightMatrix, "updateGateWeightMatrix", h * c) + decode(p.resetGateWeightMatrix, "resetGateWeightMatrix", h * c)
            + decode(p.outputGateWeightMatrix, "outputGateWeightMatrix", h * c)
        let rzr = try decode(p.updateGateRecursionMatrix, "updateGateRecursionMatrix", h * h) + decode(p.resetGateRecursionMatrix, "resetGateRecursionMatrix", h * h)
        let ro = try decode(p.outputGateRecursionMatrix, "outputGateRecursionMatrix", h * h)
        let zeros = [Float](repeating: 0, count: h)
        let b = p.hasBiasVectors_p
            ? try decode(p.updateGateBiasVector, "updateGateBiasVector", h) + decode(p.resetGateBiasVector, "resetGateBiasVector", h)
                + decode(p.outputGateBiasVector, "outputGateBiasVector", h)
            : zeros + zeros + zeros
        let activations = try activations(p.activations, count: 2, context)
        let direction = Direction(gates: 3, hidden: h, input: Linear.Packed(weight: w, outputs: 3 * h, inputs: c, bias: b),
                                  recurrent: Linear.Packed(weight: rzr, outputs: 2 * h, inputs: h, bias: nil),
                                  resetRecurrent: Linear.Packed(weight: ro, outputs: h, inputs: h, bias: nil),
                                  activations: activations, cellClip: nil)
        return layer(context, cell: .gru, directions: [direction], inputSize: c, sequenceOutput: p.sequenceOutput,
                     reverse: p.reverseInput)
    }

    static func uniDirectionalLSTM(_ p: CoreML_Specification_UniDirectionalLSTMLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...3, outputs: 1...3)
        let (c, h) = (try context.checkedSize(p.inputVectorSize, "inputVectorSize"), try context.checkedSize(p.outputVectorSize, "outputVectorSize"))
        let direction = try lstmDirection(p.weightParams, p.params, p.activations, inputSize: c, hidden: h, context)
        return layer(context, cell: .lstm, directions: [direction], inputSize: c, sequenceOutput: p.params.sequenceOutput,
                     reverse: p.reverseInput)
    }

    static func biDirectionalLSTM(_ p: CoreML_Specification_BiDirectionalLSTMLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...5, outputs: 1...5)
        let (c, h) = (try context.checkedSize(p.inputVectorSize, "inputVectorSize"), try context.checkedSize(p.outputVectorSize, "outputVectorSize"))
        guard p.weightParams.count == 2 else { throw context.invalid("has \(p.weightParams.count) weight sets, expected 2 (forward, backward)") }
        let forward = try lstmDirection(p.weightParams[0], p.params, p.activationsForwardLstm, inputSize: c, hidden: h, context)
        let backward = try lstmDirection(p.weightParams[1], p.params, p.activationsBackwardLstm, inputSize: c, hidden: h, context)
        return layer(context, cell: .lstm, directions: [forward, backward], inputSize: c, sequenceOutput: p.params.sequenceOutput,
                     reverse: false)
    }

    private static func lstmDirection(_ w: CoreML_Specification_LSTMWeightParams, _ params: CoreML_Specification_LSTMParams,
                                      _ activationParams: [CoreML_Specification_ActivationParams], inputSize c: Int, hidden h: Int,
                                      _ context: LayerContext) throws -> Direction {
        if params.hasPeepholeVectors_p { throw context.unsupported("peephole connections") }
        if params.coupledInputAndForgetGate { throw context.unsupported("coupled input and forget gates") }
        let decode = { (wp: CoreML_Specification_WeightParams, field: String, count: Int) in
            try context.weights.floats(wp, field: field, count: count, channels: h)
        }
        // Core ML's gate order: i (input), f (forget), o (output), z (block input).
        let weights = try decode(w.inputGateWeightMatrix, "inputGateWeightMatrix", h * c) + decode(w.forgetGateWeightMatrix, "forgetGateWeightMatrix", h * c)
            + decode(w.outputGateWeightMatrix, "outputGateWeightMatrix", h * c) + decode(w.blockInputWeightMatrix, "blockInputWeightMatrix", h * c)
        let recursion = try decode(w.inputGateRecursionMatrix, "inputGateRecursionMatrix", h * h)
            + decode(w.forgetGateRecursionMatrix, "forgetGateRecursionMatrix", h * h)
            + decode(w.outputGateRecursionMatrix, "outputGateRecursionMatrix", h * h)
            + decode(w.blockInputRecursionMatrix, "blockInputRecursionMatrix", h * h)
        var bias = [Float](repeating: 0, count: 4 * h)
        if params.hasBiasVectors_p {
            bias = try decode(w.inputGateBiasVector, "inputGateBiasVector", h) + decode(w.forgetGateBiasVector, "forgetGateBiasVector", h)
                + decode(w.outputGateBiasVector, "outputGateBiasVector", h) + decode(w.blockInputBiasVector, "blockInputBiasVector", h)
        }
        if params.forgetBias {
            for k in h..<(2 * h) { bias[k] += 1 }
        }
        return Direction(gates: 4, hidden: h, input: Linear.Packed(weight: weights, outputs: 4 * h, inputs: c, bias: bias),
                         recurrent: Linear.Packed(weight: recursion, outputs: 4 * h, inputs: h, bias: nil), resetRecurrent: nil,
                         activations: try activations(activationParams, count: 3, context),
                         cellClip: params.cellClipThreshold > 0 ? params.cellClipThreshold : nil)
    }

    private static func activations(_ params: [CoreML_Specification_ActivationParams], count: Int, _ context: LayerContext) throws -> [Activation] {
        guard params.count == count else { throw context.invalid("has \(params.count) activations, expected \(count)") }
        return try params.map { try Activation($0, context, inRecurrentLayer: true) }
    }

    /// The layer over one or two directions; inputs and outputs are laid out as the type comment says.
    private static func layer(_ context: LayerContext, cell: Cell, directions: [Direction], inputSize: Int,
                              sequenceOutput: Bool, reverse: Bool) -> CompiledLayer {
        let statesPerDirection = cell == .lstm ? 2 : 1
        let optional = Set(1..<max(1, context.inputs.count))
        let name = context.name, kind = context.kind
        var compiled = CompiledLayer(name: name, kind: kind, inputs: context.inputs, outputs: context.outputs) { blobs in
            let fail = { (reason: String) in CoreMLError.layerFailed(name: name, kind: kind, reason: reason) }
            guard let x = blobs.first ?? nil else { throw fail("the sequence input is missing") }
            guard x.rank == 5, x.shape[2...].reduce(1, *) == inputSize else {
                throw fail("input has shape \(x.shape), expected [Seq, Batch, \(inputSize), 1, 1]")
            }
            let steps = x.shape[0], batch = x.shape[1]
            // Every step's gates are projected at once: the largest arrays the layer makes.
            for direction in directions { try Shapes.checkOutput([steps, batch, direction.gates * direction.hidden], fail: fail) }
            try Shapes.checkOutput([steps, batch, directions[0].hidden * directions.count], fail: fail)
            var sequences = [[Float]](), finals = [[Float]]()
            for (index, direction) in directions.enumerated() {
                var states = [[Float]]()
                for component in 0..<statesPerDirection {
                    let position = 1 + index * statesPerDirection + component
                    if position < blobs.count, let state = blobs[position] {
                        guard state.count == batch * direction.hidden else {
                            throw fail("state input '\(context.inputs[position])' has \(state.count) values, expected \(batch * direction.hidden) (batch \(batch) × \(direction.hidden))")
                        }
                        states.append(state.scalars)
                    } else {
                        states.append([Float](repeating: 0, count: batch * direction.hidden))
                    }
                }
                let backwards = index == 1 ? !reverse : reverse
                let run = Self.run(direction, cell: cell, x: x, steps: steps, batch: batch, states: states, backwards: backwards)
                sequences.append(run.sequence)
                finals.append(contentsOf: run.states)
            }
            let hidden = directions[0].hidden, width = hidden * directions.count
            // Per step and batch row, the directions' outputs side by side.
            let outputSteps = sequenceOutput ? steps : 1
            var output = [Float](repeating: 0, count: outputSteps * batch * width)
            for step in 0..<outputSteps {
                for row in 0..<batch {
                    for (d, sequence) in sequences.enumerated() {
                        // Without sequence output: the forward direction's last step, the backward one's first.
                        let source = sequenceOutput ? step : (d == 0 && !reverse || d == 1 && reverse ? steps - 1 : 0)
                        let from = (source * batch + row) * hidden
                        let to = (step * batch + row) * width + d * hidden
                        output.replaceSubrange(to..<(to + hidden), with: sequence[from..<(from + hidden)])
                    }
                }
            }
            let outputBlob = Blob(shape: [outputSteps, batch, width, 1, 1], scalars: output)
            return [outputBlob] + finals.map { Blob(shape: [1, batch, hidden, 1, 1], scalars: $0) }
        }
        compiled.optionalInputs = optional
        return compiled
    }

    /// Runs one direction over all steps; returns the hidden state of every step (in input order) and the final states.
    private static func run(_ d: Direction, cell: Cell, x: Blob, steps: Int, batch: Int, states initial: [[Float]],
                            backwards: Bool) -> (sequence: [Float], states: [[Float]]) {
        let h = d.hidden, width = d.gates * h
        let projected = d.input.apply(to: x, shape: [steps * batch * width]).scalars   // [steps × batch, gates × H], biases included
        var hidden = initial[0]
        var cellState = cell == .lstm ? initial[1] : []
        var sequence = [Float](repeating: 0, count: steps * batch * h)
        let order = backwards ? Array((0..<steps).reversed()) : Array(0..<steps)
        for step in order {
            var gates = Array(projected[(step * batch * width)..<((step + 1) * batch * width)])
            let recurrent = d.recurrent(Blob(shape: [batch, h], scalars: hidden)).scalars
            let recurrentWidth = d.recurrent.outputSize
            for row in 0..<batch {
                for k in 0..<recurrentWidth { gates[row * width + k] += recurrent[row * recurrentWidth + k] }
            }
            switch cell {
            case .simple:
                hidden = d.activations[0](gates)
            case .gru:
                // z and r from f; then o = g(W_o x + R_o (r ⊙ h) + b_o); h = (1 − z) ⊙ o + z ⊙ h.
                var z = [Float](), r = [Float](), reset = [Float]()
                var outputGate = [Float]()
                for row in 0..<batch {
                    z += gates[(row * width)..<(row * width + h)]
                    r += gates[(row * width + h)..<(row * width + 2 * h)]
                    outputGate += gates[(row * width + 2 * h)..<(row * width + 3 * h)]
                }
                z = d.activations[0](z)
                r = d.activations[0](r)
                reset = zip(r, hidden).map { $0 * $1 }
                let resetProduct = d.resetRecurrent.map { $0(Blob(shape: [batch, h], scalars: reset)).scalars } ?? []
                let o = d.activations[1](zip(outputGate, resetProduct).map { $0 + $1 })
                hidden = (0..<(batch * h)).map { (1 - z[$0]) * o[$0] + z[$0] * hidden[$0] }
            case .lstm:
                var split = [[Float]](repeating: [], count: 4)
                for row in 0..<batch {
                    for gate in 0..<4 { split[gate] += gates[(row * width + gate * h)..<(row * width + (gate + 1) * h)] }
                }
                let i = d.activations[0](split[0]), f = d.activations[0](split[1])
                let o = d.activations[0](split[2]), z = d.activations[1](split[3])
                cellState = (0..<(batch * h)).map { f[$0] * cellState[$0] + i[$0] * z[$0] }
                if let clip = d.cellClip { cellState = cellState.map { Swift.min(Swift.max($0, -clip), clip) } }
                let activated = d.activations[2](cellState)
                hidden = (0..<(batch * h)).map { o[$0] * activated[$0] }
            }
            sequence.replaceSubrange((step * batch * h)..<((step + 1) * batch * h), with: hidden)
        }
        return (sequence, cell == .lstm ? [hidden, cellState] : [hidden])
    }
}

extension Activation {
    /// The function on one step's gate values of a recurrent layer.
    func callAsFunction(_ values: [Float]) -> [Float] { apply(Blob(values)).scalars }
}
