import CKernels
import Foundation

/// Runs a ``RecurrentNetwork`` layer by layer: allocates the per-layer buffers, applies
/// inter-layer dropout, and calls the cell's kernels (``LSTM`` or ``GRU``) for each layer.
enum RecurrentDriver {
    /// What the bottom layer reads.
    enum Input {
        /// Feature rows `[T, B, inputSize]`.
        case features(Tensor<Float>)
        /// Token ids `[T, B]` looked up in an embedding table `[vocabulary, inputSize]`.
        case tokens(Tensor<Int32>, table: Tensor<Float>)
    }

    /// Pointers to one layer's forward buffers (all row-major, time-major).
    struct LayerForward {
        var steps: Int
        var batch: Int
        var inputSize: Int
        var hiddenSize: Int
        var input: UnsafePointer<Float>              // [T, B, in], or the embedding table [V, in] with `tokens`
        var tokens: UnsafePointer<Int32>? = nil      // [T, B] ids whose table rows are the input (folded embedding)
        var vocabulary = 0                           // rows of the table `input` points to, with `tokens`
        var hidden: UnsafeMutablePointer<Float>      // [T + 1, B, H]; slot 0 holds the initial h
        var cells: UnsafeMutablePointer<Float>?      // LSTM: [T + 1, B, H]; slot 0 holds the initial c
        var gates: UnsafeMutablePointer<Float>       // [T, B, gates × H], activated
        var candidates: UnsafeMutablePointer<Float>? // GRU: [T, B, H], W_hn h + b_hn
        var inputWeight: UnsafePointer<Float>
        var hiddenWeight: UnsafePointer<Float>
        var inputBias: UnsafePointer<Float>
        var hiddenBias: UnsafePointer<Float>
        /// hᵀ, `[H, (T + 1)·B]` (slot t in columns t·B ..< (t + 1)·B), written step by step for the
        /// weight gradients when training with ``GateGradientPanels``; nil otherwise.
        var hiddenTransposed: UnsafeMutablePointer<Float>? = nil
        /// The layer's input transposed with the same row stride, `(T + 1)·B`, when it is the lower
        /// layer's output without dropout (the lower layer's `hiddenTransposed` from column B); or nil.
        var inputTransposed: UnsafePointer<Float>? = nil
    }

    /// Pointers to one layer's gradient buffers.
    struct LayerBackward {
        var outputGradient: UnsafeMutablePointer<Float>  // [T, B, H]
        var hiddenGradient: UnsafeMutablePointer<Float>  // [B, H]: in d(final h), out d(initial h)
        var cellGradient: UnsafeMutablePointer<Float>?   // LSTM [B, H]: in d(final c), out d(initial c)
        var inputGradient: UnsafeMutablePointer<Float>   // [T, B, in], or [V, in] (the table's) with `tokens`
        var inputWeight: UnsafeMutablePointer<Float>     // accumulated gradients
        var hiddenWeight: UnsafeMutablePointer<Float>
        var inputBias: UnsafeMutablePointer<Float>
        var hiddenBias: UnsafeMutablePointer<Float>
    }

    /// One layer's forward buffers for a run, and the tensors behind them.
    struct ForwardLayer {
        var input: Tensor<Float>
        var mask: Tensor<Float>?
        var hidden: Tensor<Float>
        var cells: Tensor<Float>
        var gates: Tensor<Float>
        var candidates: Tensor<Float>
        /// hᵀ for the weight gradients (training with the packed per-step products), else empty.
        var hiddenTransposed: Tensor<Float>
        var buffers: LayerForward

        /// Allocates layer `index`'s buffers over `input` and copies its initial h (and c) from `state`;
        /// with `transposingHidden`, also hᵀ, its slot 0 from `state`.
        init<Network: RecurrentNetwork>(_ network: Network, index: Int, input: Tensor<Float>, mask: Tensor<Float>?,
                                        tokens: Tensor<Int32>?, steps: Int, batch: Int, state: Tensor<Float>,
                                        transposingHidden: Bool) {
            let cell = Network.cell, hiddenSize = network.hiddenSize, stepSize = batch * hiddenSize
            let layer = network.layers[index]
            // Written whole before they are read: slot 0 of h and c from the state, the other slots,
            // the gates and the candidates by the layer's kernels.
            hidden = Tensor<Float>(uninitializedShape: [steps + 1, batch, hiddenSize])
            cells = Tensor<Float>(uninitializedShape: cell == .lstm ? [steps + 1, batch, hiddenSize] : [0])
            gates = Tensor<Float>(uninitializedShape: [steps, batch, cell.gateCount * hiddenSize])
            candidates = Tensor<Float>(uninitializedShape: cell == .gru ? [steps, batch, hiddenSize] : [0])
            let stateBase = state.kernelPointer + index * cell.stateComponentCount * stepSize
            hidden.kernelPointer.update(from: stateBase, count: stepSize)
            if cell == .lstm { cells.kernelPointer.update(from: stateBase + stepSize, count: stepSize) }
            let transposedColumns = (steps + 1) * batch
            hiddenTransposed = Tensor<Float>(uninitializedShape: transposingHidden ? [hiddenSize, transposedColumns] : [0])
            if transposingHidden {
                nlukit_transpose(stateBase, hiddenSize, batch, hiddenSize, hiddenTransposed.kernelPointer, transposedColumns, 0)
            }
            (self.input, self.mask) = (input, mask)
            buffers = LayerForward(
                steps: steps, batch: batch, inputSize: index == 0 ? network.inputSize : hiddenSize, hiddenSize: hiddenSize,
                input: input.kernelPointer, tokens: tokens?.kernelPointer, vocabulary: tokens == nil ? 0 : input.shape[0],
                hidden: hidden.kernelPointer, cells: cell == .lstm ? cells.kernelPointer : nil, gates: gates.kernelPointer,
                candidates: cell == .gru ? candidates.kernelPointer : nil,
                inputWeight: layer.inputWeight.kernelPointer, hiddenWeight: layer.hiddenWeight.kernelPointer,
                inputBias: layer.inputBias.kernelPointer, hiddenBias: layer.hiddenBias.kernelPointer,
                hiddenTransposed: transposingHidden ? hiddenTransposed.kernelPointer : nil)
        }

        /// The layer's output, `[T, B, H]`: its h after every step.
        var output: Tensor<Float> { hidden.slice(1..<(buffers.steps + 1)) }
    }

    static func run<Network: RecurrentNetwork>(
        _ network: Network, input: Input, initialState: Tensor<Float>?, dropout: Float,
        generator: inout SplitMix64, keepTrace: Bool, schedule: RecurrentPipeline.Schedule = .automatic
    ) -> (output: Tensor<Float>, finalState: Tensor<Float>, trace: RecurrentTrace) {
        let steps: Int, batch: Int, hiddenSize = network.hiddenSize
        var layerInput: Tensor<Float>
        var tokens: Tensor<Int32>? = nil, folded = false, inputMask: Tensor<Float>? = nil, vocabulary = 0
        switch input {
        case let .features(features):
            precondition(features.rank == 3 && features.shape[2] == network.inputSize,
                         "RNN input must be [T, B, \(network.inputSize)], got \(features.shape)")
            (steps, batch) = (features.shape[0], features.shape[1])
            layerInput = features.contiguous()
        case let .tokens(ids, table):
            precondition(ids.rank == 2 && table.rank == 2 && table.shape[1] == network.inputSize,
                         "RNN tokens must be [T, B] ids into a [vocabulary, \(network.inputSize)] table, got \(ids.shape), \(table.shape)")
            (steps, batch) = (ids.shape[0], ids.shape[1])
            tokens = ids.contiguous()
            vocabulary = table.shape[0]
            // The folded path indexes the projected table with the ids directly: check them here, once.
            if let position = ids.scalars.firstIndex(where: { $0 < 0 || Int($0) >= table.shape[0] }) {
                preconditionFailure("RNN token \(ids.scalars[position]) at \(position) is outside the table's 0..<\(table.shape[0])")
            }
            // Every occurrence of a token then has the same input, so the bottom layer can project the
            // table once instead of every row (a character model: 3,200 rows of ~70 tokens) — unless
            // dropout gives each occurrence its own mask.
            folded = dropout == 0 && table.shape[0] < ids.count
            if folded {
                layerInput = table.contiguous()
            } else {
                layerInput = Kernels.embedding(table, ids: ids)
                if dropout > 0 { (layerInput, inputMask) = Dropout.apply(layerInput, probability: dropout, generator: &generator) }
            }
        }
        let cell = Network.cell
        let stateShape = network.stateShape(batch: batch)
        let state = (initialState ?? Tensor(shape: stateShape)).contiguous()
        precondition(state.shape == stateShape, "RNN state must be \(stateShape), got \(state.shape)")
        let finalState = Tensor<Float>(shape: stateShape)
        var trace = RecurrentTrace(steps: steps, batch: batch)
        trace.tokens = tokens
        trace.foldsEmbedding = folded
        trace.embeddingVocabulary = vocabulary
        let stepSize = batch * hiddenSize
        let pipelined = schedule.pipelines(batch: batch)
        // The backward pass's weight gradients read hᵀ where the gate gradients are gathered in panels.
        let transposingHidden = keepTrace && GateGradientPanels.areUsed(batch: batch)

        func finish(_ layer: ForwardLayer, index: Int) {
            let finalBase = finalState.kernelPointer + index * cell.stateComponentCount * stepSize
            finalBase.update(from: layer.hidden.kernelPointer + steps * stepSize, count: stepSize)
            if cell == .lstm { (finalBase + stepSize).update(from: layer.cells.kernelPointer + steps * stepSize, count: stepSize) }
            if keepTrace {
                trace.layerInputs.append(layer.input)
                trace.hidden.append(layer.hidden)
                trace.cells.append(layer.cells)
                trace.gates.append(layer.gates)
                trace.hiddenCandidates.append(layer.candidates)
                trace.hiddenTransposed.append(transposingHidden ? layer.hiddenTransposed : nil)
                trace.dropoutMasks.append(layer.mask)
            }
        }

        var index = 0
        while index < network.layers.count {
            var mask: Tensor<Float>? = index == 0 ? inputMask : nil
            if index > 0, dropout > 0 {
                (layerInput, mask) = Dropout.apply(layerInput, probability: dropout, generator: &generator)
            }
            let lower = ForwardLayer(network, index: index, input: layerInput, mask: mask,
                                     tokens: index == 0 && folded ? tokens : nil, steps: steps, batch: batch, state: state,
                                     transposingHidden: transposingHidden)
            if pipelined, index + 1 < network.layers.count {
                // The upper layer reads the lower one's output, dropped out step by step with a mask drawn now.
                let upperMask = dropout > 0
                    ? Dropout.mask(shape: [steps, batch, hiddenSize], probability: dropout, generator: &generator) : nil
                let upperInput = upperMask == nil ? lower.output : Tensor<Float>(uninitializedShape: [steps, batch, hiddenSize])
                let upper = ForwardLayer(network, index: index + 1, input: upperInput, mask: upperMask, tokens: nil,
                                         steps: steps, batch: batch, state: state, transposingHidden: transposingHidden)
                withExtendedLifetime((network.layers, lower, upper, state, tokens)) {
                    RecurrentPipeline.forward(cell: cell, lower: lower.buffers, upper: upper.buffers,
                                              upperMask: upperMask.map { UnsafePointer($0.kernelPointer) })
                }
                finish(lower, index: index)
                finish(upper, index: index + 1)
                layerInput = upper.output
                index += 2
            } else {
                withExtendedLifetime((network.layers, lower, state, tokens)) {
                    let inputs = lower.buffers.projectInputs(gateWidth: cell.gateCount * hiddenSize,
                                                             addingHiddenBias: cell.inputProjectionAddsHiddenBias)
                    let layerSteps = cell.forwardSteps(lower.buffers)
                    for step in 0..<steps {
                        inputs.fill(step: step)
                        layerSteps.run(step: step)
                    }
                }
                finish(lower, index: index)
                layerInput = lower.output
                index += 1
            }
        }
        return (layerInput, finalState, trace)
    }

    /// One layer's backward buffers, and the tensors behind them.
    struct BackwardLayer {
        var gradient: RecurrentLayerWeights
        var inputGradient: Tensor<Float>
        var hiddenGradient: Tensor<Float>
        var cellGradient: Tensor<Float>
        var forward: LayerForward
        var buffers: LayerBackward

        /// Allocates layer `index`'s gradient buffers, with d(final h) (and d(final c)) from `finalGradient`
        /// and `upstream` as d(output).
        init<Network: RecurrentNetwork>(_ network: Network, index: Int, trace: RecurrentTrace, upstream: Tensor<Float>,
                                        finalGradient: Tensor<Float>) {
            let cell = Network.cell, steps = trace.steps, batch = trace.batch, hiddenSize = network.hiddenSize
            let stepSize = batch * hiddenSize
            let layer = network.layers[index]
            let inputSize = index == 0 ? network.inputSize : hiddenSize
            gradient = RecurrentLayerWeights(gateCount: cell.gateCount, inputSize: inputSize, hiddenSize: hiddenSize)
            let folded = index == 0 && trace.foldsEmbedding
            let tokens = folded ? trace.tokens : nil
            let layerInput = trace.layerInputs[index]
            inputGradient = Tensor<Float>(shape: folded ? layerInput.shape : [steps, batch, inputSize])
            hiddenGradient = Tensor<Float>(shape: [batch, hiddenSize])
            cellGradient = Tensor<Float>(shape: [batch, hiddenSize])
            let stateBase = finalGradient.kernelPointer + index * cell.stateComponentCount * stepSize
            hiddenGradient.kernelPointer.update(from: stateBase, count: stepSize)
            if cell == .lstm { cellGradient.kernelPointer.update(from: stateBase + stepSize, count: stepSize) }
            forward = LayerForward(
                steps: steps, batch: batch, inputSize: inputSize, hiddenSize: hiddenSize,
                input: layerInput.kernelPointer, tokens: tokens?.kernelPointer,
                vocabulary: folded ? layerInput.shape[0] : 0, hidden: trace.hidden[index].kernelPointer,
                cells: cell == .lstm ? trace.cells[index].kernelPointer : nil, gates: trace.gates[index].kernelPointer,
                candidates: cell == .gru ? trace.hiddenCandidates[index].kernelPointer : nil,
                inputWeight: layer.inputWeight.kernelPointer, hiddenWeight: layer.hiddenWeight.kernelPointer,
                inputBias: layer.inputBias.kernelPointer, hiddenBias: layer.hiddenBias.kernelPointer,
                hiddenTransposed: trace.hiddenTransposed[index]?.kernelPointer,
                // Without dropout between them, this layer's input is the lower layer's h from slot 1 on.
                inputTransposed: index > 0 && trace.dropoutMasks[index] == nil
                    ? trace.hiddenTransposed[index - 1].map { UnsafePointer($0.kernelPointer + batch) } : nil)
            buffers = LayerBackward(
                outputGradient: upstream.kernelPointer, hiddenGradient: hiddenGradient.kernelPointer,
                cellGradient: cell == .lstm ? cellGradient.kernelPointer : nil,
                inputGradient: inputGradient.kernelPointer,
                inputWeight: gradient.inputWeight.kernelPointer, hiddenWeight: gradient.hiddenWeight.kernelPointer,
                inputBias: gradient.inputBias.kernelPointer, hiddenBias: gradient.hiddenBias.kernelPointer)
        }
    }

    static func backward<Network: RecurrentNetwork>(
        _ network: Network, trace: RecurrentTrace, outputGradient: Tensor<Float>, finalStateGradient: Tensor<Float>?,
        schedule: RecurrentPipeline.Schedule = .automatic
    ) -> RecurrentGradients {
        let steps = trace.steps, batch = trace.batch, hiddenSize = network.hiddenSize
        let cell = Network.cell
        precondition(trace.hidden.count == network.layers.count, "backward needs a trace from forwardForTraining")
        precondition(outputGradient.shape == [steps, batch, hiddenSize],
                     "output gradient must be \([steps, batch, hiddenSize]), got \(outputGradient.shape)")
        let stateShape = network.stateShape(batch: batch)
        let finalGradient = finalStateGradient?.contiguous() ?? Tensor(shape: stateShape)
        precondition(finalGradient.shape == stateShape, "final state gradient must be \(stateShape)")
        let initialStateGradient = Tensor<Float>(shape: stateShape)
        let stepSize = batch * hiddenSize
        var gradients: [RecurrentLayerWeights] = []
        var upstream = outputGradient.contiguous()
        var inputGradient = Tensor<Float>(shape: [0])
        let pipelined = schedule.pipelines(batch: batch)

        /// Stores layer `index`'s initial-state and weight gradients, and returns d(its input), the
        /// dropout mask of its forward input applied when `applyingMask`.
        func finish(_ layer: BackwardLayer, index: Int, applyingMask: Bool) -> Tensor<Float> {
            let initialBase = initialStateGradient.kernelPointer + index * cell.stateComponentCount * stepSize
            initialBase.update(from: layer.hiddenGradient.kernelPointer, count: stepSize)
            if cell == .lstm { (initialBase + stepSize).update(from: layer.cellGradient.kernelPointer, count: stepSize) }
            gradients.append(layer.gradient)
            var result = layer.inputGradient
            if applyingMask, let mask = trace.dropoutMasks[index] { Dropout.backward(&result, mask: mask) }
            return result
        }

        var index = network.layers.count - 1
        while index >= 0 {
            let upper = BackwardLayer(network, index: index, trace: trace, upstream: upstream, finalGradient: finalGradient)
            if pipelined, index > 0 {
                // d(upper's input) is d(lower's output): one buffer, filled (and masked) step by step.
                let lower = BackwardLayer(network, index: index - 1, trace: trace, upstream: upper.inputGradient,
                                          finalGradient: finalGradient)
                let upperMask = trace.dropoutMasks[index]
                withExtendedLifetime((network.layers, trace, upstream, upper, lower, upperMask)) {
                    RecurrentPipeline.backward(cell: cell, upper: (upper.forward, upper.buffers), lower: (lower.forward, lower.buffers),
                                               upperMask: upperMask.map { UnsafePointer($0.kernelPointer) })
                }
                _ = finish(upper, index: index, applyingMask: false)
                upstream = finish(lower, index: index - 1, applyingMask: index - 1 > 0)
                index -= 2
            } else {
                withExtendedLifetime((network.layers, trace, upstream, upper)) {
                    let layerSteps = cell.backwardSteps(upper.forward, upper.buffers)
                    for step in stride(from: steps - 1, through: 0, by: -1) { layerSteps.run(step: step) }
                    layerSteps.finish(writingInputGradient: true)
                }
                upstream = finish(upper, index: index, applyingMask: index > 0)
                index -= 1
            }
            if index < 0 {
                // `upstream` is now d(the bottom layer's input).
                if let tokens = trace.tokens, !trace.foldsEmbedding {
                    // Tokens looked up row by row: their gradients (through the dropout mask) add into the table's.
                    var rowGradient = upstream
                    if let mask = trace.dropoutMasks[0] { Dropout.backward(&rowGradient, mask: mask) }
                    let vocabulary = trace.embeddingVocabulary, inputSize = network.inputSize
                    inputGradient = Tensor(shape: [vocabulary, inputSize])
                    withExtendedLifetime((rowGradient, tokens)) {
                        Kernels.addRows(rowGradient.kernelPointer, ids: tokens.kernelPointer, count: tokens.count, width: inputSize,
                                        vocabulary: vocabulary, into: inputGradient.kernelPointer)
                    }
                } else {
                    inputGradient = upstream
                }
            }
        }
        return RecurrentGradients(input: inputGradient, layers: gradients.reversed(), initialState: initialStateGradient)
    }
}

extension RecurrentDriver {
    /// A layer's input projection as its steps read it: already in the gates (a whole-sequence
    /// GEMM), or a projected embedding table whose rows each step copies into its own gates.
    ///
    /// Copied one step at a time, the rows are still in cache when the step's recurrent product
    /// adds into them; copied for all 3,200 tokens up front (13 MB), they were back in memory by then.
    final class ProjectedInputs {
        private let layer: LayerForward
        private let width: Int
        /// `[vocabulary, width]`, owned; nil when the gates hold the projection already.
        private let table: UnsafeMutablePointer<Float>?

        init(layer: LayerForward, width: Int, table: UnsafeMutablePointer<Float>?) {
            (self.layer, self.width, self.table) = (layer, width, table)
        }

        deinit { table?.deallocate() }

        /// Writes step `step`'s input projection into its gates, if they do not hold it yet.
        func fill(step: Int) {
            guard let table, let tokens = layer.tokens else { return }
            for row in step * layer.batch..<(step + 1) * layer.batch {
                (layer.gates + row * width).update(from: table + Int(tokens[row]) * width, count: width)
            }
        }
    }
}

/// The steps that ``LSTM`` and ``GRU`` layers share around their cell kernels.
extension RecurrentDriver.LayerForward {
    /// Fills `gates` (`[T, B, width]`) with the input projection of every step in one GEMM:
    /// `x W_ihᵀ + b_ih`, plus `b_hh` when `addingHiddenBias`.
    /// With `tokens`, projects the table's `vocabulary` rows instead, and each step copies its tokens'
    /// rows into its gates (``ProjectedInputs/fill(step:)``) right before its product.
    func projectInputs(gateWidth width: Int, addingHiddenBias: Bool) -> RecurrentDriver.ProjectedInputs {
        let rows = tokens == nil ? steps * batch : vocabulary
        let projected = tokens == nil ? gates : UnsafeMutablePointer<Float>.allocate(capacity: max(1, rows * width))
        RecurrentMath.fillRows(projected, rows: rows, columns: width, with: inputBias, plus: addingHiddenBias ? hiddenBias : nil)
        RecurrentMath.multiply(input, rows: rows, inner: inputSize, weight: inputWeight, transposed: true,
                               columns: width, into: projected, beta: 1)
        return RecurrentDriver.ProjectedInputs(layer: self, width: width, table: tokens == nil ? nil : projected)
    }

    /// Copies step `step`'s new h (slot `step + 1`) into `hiddenTransposed`, if the layer keeps one:
    /// 32 KB still in cache, where transposing all of h for the weight gradients afterwards cost
    /// 0.4 ms a layer (a character LSTM).
    func transposeHidden(step: Int) {
        guard let hiddenTransposed else { return }
        let slot = step + 1
        nlukit_transpose(hidden + slot * batch * hiddenSize, hiddenSize, batch, hiddenSize, hiddenTransposed + slot * batch,
                         (steps + 1) * batch, 0)
    }

    /// `W_hh` packed for the per-step products of the forward (`W_hhᵀ`) or backward (`W_hh`) pass.
    func packedHiddenWeight(gateWidth width: Int, forward: Bool) -> PackedMatrix? {
        RecurrentMath.packedForSteps(hiddenWeight, rows: width, columns: hiddenSize, transposed: forward, batch: batch)
    }

    /// After the backward loop: adds the weight and bias gradients of every step to `gradient` and
    /// writes d(input) (unless `writingInputGradient` is false: ``RecurrentPipeline`` wrote it step
    /// by step), from the pre-activation gate gradients `[T, B, width]` on the input side and the
    /// hidden side (the same buffer for an LSTM, whose two sides share their gates), or from what
    /// `inputPanels` and `hiddenPanels` gathered of them step by step (packed, summed).
    ///
    /// With `tokens`, the input side works on the sums of the gate gradients per token (`[V, width]`):
    /// every row of a token has the same input, so `Σ_rows g ⊗ x = Σ_tokens (Σ g) ⊗ table[token]`,
    /// and d(input) is the table's gradient, `[V, in]`.
    func accumulateParameterGradients(_ gradient: RecurrentDriver.LayerBackward, gateWidth width: Int,
                                      inputGates: UnsafePointer<Float>, hiddenGates: UnsafePointer<Float>,
                                      inputPanels: GateGradientPanels?, hiddenPanels: GateGradientPanels?,
                                      writingInputGradient: Bool) {
        let rows = steps * batch
        let transposedStride = (steps + 1) * batch
        if let hiddenPanels {
            RecurrentMath.accumulateWeightGradient(hiddenPanels.packed, input: hidden, inner: hiddenSize, into: gradient.hiddenWeight,
                                                   transposedInput: hiddenTransposed.map { (UnsafePointer($0), transposedStride) })
        } else {
            RecurrentMath.accumulateWeightGradient(hiddenGates, rows: rows, columns: width, input: hidden,
                                                   inner: hiddenSize, into: gradient.hiddenWeight)
        }
        // The input side: the gate rows, or their sums per token.
        var inputSideGates = inputGates, inputSideRows = rows
        var ownTokenSums: UnsafeMutablePointer<Float>? = nil
        defer { ownTokenSums?.deallocate() }
        if let tokens {
            if let sums = inputPanels?.tokenSums {
                inputSideGates = UnsafePointer(sums)
            } else {
                let sums = UnsafeMutablePointer<Float>.allocate(capacity: max(1, vocabulary * width))
                sums.initialize(repeating: 0, count: vocabulary * width)
                Kernels.addRows(inputGates, ids: tokens, count: rows, width: width, vocabulary: vocabulary, into: sums)
                (ownTokenSums, inputSideGates) = (sums, UnsafePointer(sums))
            }
            inputSideRows = vocabulary
        }
        if tokens == nil, let inputPanels {
            RecurrentMath.accumulateWeightGradient(inputPanels.packed, input: input, inner: inputSize, into: gradient.inputWeight,
                                                   transposedInput: inputTransposed.map { ($0, transposedStride) })
        } else {
            RecurrentMath.accumulateWeightGradient(inputSideGates, rows: inputSideRows, columns: width, input: input,
                                                   inner: inputSize, into: gradient.inputWeight)
        }
        if let inputPanels {
            for column in 0..<width { gradient.inputBias[column] += inputPanels.columnSums[column] }
        } else {
            RecurrentMath.accumulateColumnSums(inputSideGates, rows: inputSideRows, columns: width, into: gradient.inputBias)
        }
        if hiddenGates == inputGates {
            gradient.hiddenBias.update(from: gradient.inputBias, count: width)
        } else if let hiddenPanels {
            for column in 0..<width { gradient.hiddenBias[column] += hiddenPanels.columnSums[column] }
        } else {
            RecurrentMath.accumulateColumnSums(hiddenGates, rows: rows, columns: width, into: gradient.hiddenBias)
        }
        if writingInputGradient {
            RecurrentMath.multiply(inputSideGates, rows: inputSideRows, inner: width, weight: inputWeight, transposed: false,
                                   columns: inputSize, into: gradient.inputGradient, beta: 0)
        }
    }
}

extension Tensor {
    /// The address of element 0, for kernels: only on contiguous tensors, and written only when this
    /// code allocated the tensor itself (unique, writable storage). Keep the tensor alive while using it.
    var kernelPointer: UnsafeMutablePointer<Scalar> {
        assert(isContiguous, "kernelPointer needs a contiguous tensor")
        return storage.baseAddress + offset
    }
}

/// The GEMM shapes the recurrent kernels use, over row-major buffers.
enum RecurrentMath {
    /// Whether the per-step recurrent products use ``PackedMatrix`` (default) or plain BLAS
    /// calls; `NLUKIT_RECURRENT_GEMM=blas` selects BLAS, for A/B benchmarks in one build.
    static let usePackedWeights: Bool = ProcessInfo.processInfo.environment["NLUKIT_RECURRENT_GEMM"] != "blas"

    /// The per-step recurrent weight packed for a whole sequence of `batch` rows: `weight[rows, columns]`
    /// transposed for the forward product, as is for the backward one; nil when a plain BLAS call is
    /// as good (one row: a GEMV) or `NLUKIT_RECURRENT_GEMM=blas` asks for BLAS.
    static func packedForSteps(_ weight: UnsafePointer<Float>, rows: Int, columns: Int, transposed: Bool,
                               batch: Int) -> PackedMatrix? {
        guard batch > 1, usePackedWeights else { return nil }
        return PackedMatrix(weight: weight, rows: rows, columns: columns, transposed: transposed)
    }

    /// `output[m, n] = beta * output + x[m, k] · W` (a GEMV when m is 1), with W = `weight[n, k]ᵀ` when
    /// `transposed` (forward through a linear map) or `weight[k, n]` (back through it); with `packed`
    /// (W packed, beta 0 or 1) the packed kernel computes it.
    @inline(__always)
    static func multiply(_ x: UnsafePointer<Float>, rows m: Int, inner k: Int, weight: UnsafePointer<Float>,
                         transposed: Bool, columns n: Int, into output: UnsafeMutablePointer<Float>, beta: Float,
                         packed: PackedMatrix? = nil) {
        if let packed {
            packed.multiply(x, rows: m, into: output, accumulate: beta != 0)
        } else if m == 1 {
            // One row: y = W·x over the weight as stored ([n, k] when transposed, else [k, n]).
            BLAS.sgemv(transposed ? .none : .transpose, rows: transposed ? n : k, columns: transposed ? k : n,
                       a: weight, lda: transposed ? k : n, x: x, beta: beta, y: output)
        } else {
            BLAS.sgemm(.none, transposed ? .transpose : .none, m: m, n: n, k: k, a: x, lda: k, b: weight,
                       ldb: transposed ? k : n, beta: beta, c: output, ldc: n)
        }
    }

    /// `weightGradient[n, k] += gradient[m, n]ᵀ · x[m, k]` (the weight gradient of a linear map).
    @inline(__always)
    static func accumulateWeightGradient(_ gradient: UnsafePointer<Float>, rows m: Int, columns n: Int,
                                         input x: UnsafePointer<Float>, inner k: Int, into weightGradient: UnsafeMutablePointer<Float>) {
        BLAS.sgemm(.transpose, .none, m: n, n: k, k: m, a: gradient, lda: n, b: x, ldb: k, beta: 1, c: weightGradient, ldc: k)
    }

    /// `weightGradient[n, k] += gradient[m, n]ᵀ · x[m, k]` with the gradient packed (`m × n`):
    /// computed as its transpose, `xᵀ · gradient`, by the packed kernel, then added back transposed.
    /// `transposedInput`, when given, is `xᵀ` already (`k` rows of `m` floats at the given stride).
    ///
    /// OpenBLAS packs both operands on every call (4 % of a character LSTM's training step in its
    /// copies) and ran these products at about 80 % of the FMA peak; with the gradient packed step by
    /// step (``GateGradientPanels``) and hᵀ written by the forward steps, the packed kernel runs them at
    /// about 95 % (Zen 4, 2 threads: 23 ms a step for the three 1.7 GFLOP products).
    static func accumulateWeightGradient(_ gradient: PackedMatrix, input x: UnsafePointer<Float>, inner k: Int,
                                         into weightGradient: UnsafeMutablePointer<Float>,
                                         transposedInput: (UnsafePointer<Float>, stride: Int)? = nil) {
        let m = gradient.inner, n = gradient.width
        var ownTransposed: UnsafeMutablePointer<Float>? = nil
        let transposedProduct = UnsafeMutablePointer<Float>.allocate(capacity: max(1, k * n))
        defer {
            ownTransposed?.deallocate()
            transposedProduct.deallocate()
        }
        let (xT, stride): (UnsafePointer<Float>, Int)
        if let transposedInput {
            (xT, stride) = transposedInput
        } else {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, k * m))
            Kernels.forEachRowChunk(rowCount: k, rowLength: m) { columns in
                nlukit_transpose(x + columns.lowerBound, k, m, columns.count, buffer + columns.lowerBound * m, m, 0)
            }
            (ownTransposed, xT, stride) = (buffer, UnsafePointer(buffer), m)
        }
        gradient.multiply(xT, rows: k, lda: stride, into: transposedProduct)
        Kernels.forEachRowChunk(rowCount: n, rowLength: k) { rows in
            nlukit_transpose(transposedProduct + rows.lowerBound, n, k, rows.count, weightGradient + rows.lowerBound * k, k, 1)
        }
    }

    /// `sums[n] += Σ_rows values[row, n]` (a bias gradient), split by columns over the threads, each
    /// column summed in row order whatever the thread count.
    @inline(__always)
    static func accumulateColumnSums(_ values: UnsafePointer<Float>, rows: Int, columns: Int, into sums: UnsafeMutablePointer<Float>) {
        Kernels.forEachRowChunk(rowCount: columns, rowLength: rows) { range in
            for row in 0..<rows {
                let line = values + row * columns
                for column in range { sums[column] += line[column] }
            }
        }
    }

    /// Fills each of `rows` rows of `output` with `first + second` (two bias vectors of `columns`).
    @inline(__always)
    static func fillRows(_ output: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                         with first: UnsafePointer<Float>, plus second: UnsafePointer<Float>?) {
        Kernels.forEachRowChunk(rowCount: rows, rowLength: columns) { range in
            for row in range {
                let line = output + row * columns
                if let second {
                    for column in 0..<columns { line[column] = first[column] + second[column] }
                } else {
                    line.update(from: first, count: columns)
                }
            }
        }
    }
}
