import Foundation
import Testing
@testable import NLUCore

/// LSTM and GRU against PyTorch (Tests/Fixtures/lm/layers.json from scripts/fixtures/lm.py):
/// outputs, final states and autograd gradients within 1e-5; plus numerical gradient checks.
@Suite struct RecurrentLayerTests {
    struct Case: Decodable {
        var cell: String
        var layers: Int
        var inputSize: Int
        var hiddenSize: Int
        var steps: Int
        var batch: Int
        var weights: [String: [Float]]
        var input: [Float]
        var initialState: [Float]
        var output: [Float]
        var finalState: [Float]
        var outputGradient: [Float]
        var finalStateGradient: [Float]
        var inputGradientExpected: [Float]
        var initialStateGradientExpected: [Float]
        var weightGradientsExpected: [String: [Float]]
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/lm/layers.json")
        guard let data = try? Data(contentsOf: url), let cases = try? JSONDecoder().decode([Case].self, from: data) else {
            return []
        }
        return cases
    }()

    static func network(_ c: Case) throws -> any RecurrentNetwork {
        let gates = c.cell == "lstm" ? 4 : 3
        let lookup: (String) -> Tensor<Float>? = { name in
            guard let values = c.weights[name] else { return nil }
            let rows = gates * c.hiddenSize
            return Tensor(shape: values.count == rows ? [rows] : [rows, values.count / rows], scalars: values)
        }
        if c.cell == "lstm" {
            return try LSTM(inputSize: c.inputSize, hiddenSize: c.hiddenSize, layerCount: c.layers, tensor: lookup)
        }
        return try GRU(inputSize: c.inputSize, hiddenSize: c.hiddenSize, layerCount: c.layers, tensor: lookup)
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "sizes differ: \(a.count) vs \(b.count)")
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test func fixturesArePresent() {
        #expect(Self.cases.count == 4)
    }

    @Test(arguments: 0..<4) func forwardMatchesPyTorch(index: Int) throws {
        let c = try #require(Self.cases.count > index ? Self.cases[index] : nil)
        let network = try Self.network(c)
        let input = Tensor(shape: [c.steps, c.batch, c.inputSize], scalars: c.input)
        let state = Tensor(shape: network.stateShape(batch: c.batch), scalars: c.initialState)
        let (output, finalState) = network.forward(input, initialState: state)
        #expect(Self.maxDifference(output.scalars, c.output) < 1e-5, "\(c.cell) \(c.layers) layers: output")
        #expect(Self.maxDifference(finalState.scalars, c.finalState) < 1e-5, "\(c.cell) \(c.layers) layers: state")
    }

    @Test(arguments: 0..<4) func stepByStepEqualsWholeSequence(index: Int) throws {
        let c = try #require(Self.cases.count > index ? Self.cases[index] : nil)
        let network = try Self.network(c)
        let input = Tensor(shape: [c.steps, c.batch, c.inputSize], scalars: c.input)
        var state = Tensor(shape: network.stateShape(batch: c.batch), scalars: c.initialState)
        var outputs: [Float] = []
        for step in 0..<c.steps {
            outputs += network.step(input[step], state: &state).scalars
        }
        #expect(Self.maxDifference(outputs, c.output) < 1e-5)
        #expect(Self.maxDifference(state.scalars, c.finalState) < 1e-5)
    }

    @Test(arguments: 0..<4) func backwardMatchesPyTorchAutograd(index: Int) throws {
        let c = try #require(Self.cases.count > index ? Self.cases[index] : nil)
        let network = try Self.network(c)
        let input = Tensor(shape: [c.steps, c.batch, c.inputSize], scalars: c.input)
        let stateShape = network.stateShape(batch: c.batch)
        var generator = SplitMix64(seed: 1)
        let (_, _, trace) = network.forwardForTraining(
            input, initialState: Tensor(shape: stateShape, scalars: c.initialState), generator: &generator)
        let gradients = network.backward(
            trace, outputGradient: Tensor(shape: [c.steps, c.batch, c.hiddenSize], scalars: c.outputGradient),
            finalStateGradient: Tensor(shape: stateShape, scalars: c.finalStateGradient))
        #expect(Self.maxDifference(gradients.input.scalars, c.inputGradientExpected) < 1e-5)
        #expect(Self.maxDifference(gradients.initialState.scalars, c.initialStateGradientExpected) < 1e-5)
        for (layerIndex, layer) in gradients.layers.enumerated() {
            for (name, tensor) in zip(RecurrentLayerWeights.parameterNames(layer: layerIndex), layer.tensors) {
                let expected = try #require(c.weightGradientsExpected[name])
                #expect(Self.maxDifference(tensor.scalars, expected) < 1e-5, "\(c.cell) \(name)")
            }
        }
    }

    /// A forward pass over token ids against the same pass over the looked-up rows (checked against
    /// PyTorch above), within 1e-5: with a table smaller than the batch's tokens and no dropout
    /// (the first layer projects the table once per token), with a larger table, and with
    /// dropout (the looked-up rows, then their gradients scattered into the table's); and the
    /// inference pass over tokens against the rows'.
    @Test(arguments: [RecurrentCell.lstm, .gru], [(vocabulary: 5, dropout: Float(0)), (40, 0), (5, 0.3)])
    func tokensMatchLookedUpRows(cell: RecurrentCell, setup: (vocabulary: Int, dropout: Float)) throws {
        var generator = SplitMix64(seed: 11)
        let steps = 6, batch = 3, inputSize = 4, hiddenSize = 5
        let network: any RecurrentNetwork = cell == .lstm
            ? LSTM(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
            : GRU(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
        let table = randomTensor([setup.vocabulary, inputSize], using: &generator)
        let ids = Tensor<Int32>(shape: [steps, batch], scalars: (0..<(steps * batch)).map { _ in
            Int32.random(in: 0..<Int32(setup.vocabulary), using: &generator)
        })
        let state = randomTensor(network.stateShape(batch: batch), using: &generator)
        let outputGradient = randomTensor([steps, batch, hiddenSize], using: &generator)

        var tokenGenerator = SplitMix64(seed: 3)
        let tokens = network.forwardForTraining(tokens: ids, embedding: table, initialState: state,
                                                dropout: setup.dropout, generator: &tokenGenerator)
        let tokenGradients = network.backward(tokens.trace, outputGradient: outputGradient)
        #expect(tokens.trace.foldsEmbedding == (setup.vocabulary < steps * batch && setup.dropout == 0))

        // The same by hand: look up, drop out with the same generator, run on rows, scatter back.
        var rowGenerator = SplitMix64(seed: 3)
        var rows = Kernels.embedding(table, ids: ids)
        var mask: Tensor<Float>? = nil
        if setup.dropout > 0 { (rows, mask) = Dropout.apply(rows, probability: setup.dropout, generator: &rowGenerator) }
        let plain = network.forwardForTraining(rows, initialState: state, dropout: setup.dropout, generator: &rowGenerator)
        var rowGradient = network.backward(plain.trace, outputGradient: outputGradient)
        if let mask { Dropout.backward(&rowGradient.input, mask: mask) }
        var tableGradient = [Float](repeating: 0, count: setup.vocabulary * inputSize)
        for (row, id) in ids.scalars.enumerated() {
            for column in 0..<inputSize { tableGradient[Int(id) * inputSize + column] += rowGradient.input.scalars[row * inputSize + column] }
        }

        #expect(Self.maxDifference(tokens.output.scalars, plain.output.scalars) < 1e-5)
        if setup.dropout == 0 {  // inference over tokens: the same as the training pass without dropout
            let inference = network.forward(tokens: ids, embedding: table, initialState: state)
            #expect(Self.maxDifference(inference.output.scalars, plain.output.scalars) < 1e-5)
            #expect(Self.maxDifference(inference.finalState.scalars, plain.finalState.scalars) < 1e-5)
        }
        #expect(Self.maxDifference(tokens.finalState.scalars, plain.finalState.scalars) < 1e-5)
        #expect(tokenGradients.input.shape == [setup.vocabulary, inputSize])
        #expect(Self.maxDifference(tokenGradients.input.scalars, tableGradient) < 1e-5)
        #expect(Self.maxDifference(tokenGradients.initialState.scalars, rowGradient.initialState.scalars) < 1e-5)
        for (layer, expected) in zip(tokenGradients.layers, rowGradient.layers) {
            for (tensor, reference) in zip(layer.tensors, expected.tensors) {
                #expect(Self.maxDifference(tensor.scalars, reference.scalars) < 1e-5, "\(cell) \(setup)")
            }
        }
    }

    /// The pipelined schedule (``RecurrentPipeline``: two layers at once, the products between
    /// them step by step, half on each thread) against the layer-by-layer loop, for three layers
    /// (a pipelined pair, then one alone; backward, the top pair, then the bottom layer alone):
    /// outputs, final states and every gradient within 1e-5, over features and over tokens
    /// (folded without dropout), with and without inter-layer dropout (the same masks drawn).
    /// Hidden size 40 makes uneven halves: 5 gate panels (LSTM), a partial panel in d(input).
    @Test(arguments: [RecurrentCell.lstm, .gru], [Float(0), 0.3])
    func pipelineMatchesLayerByLayer(cell: RecurrentCell, dropout: Float) throws {
        var generator = SplitMix64(seed: 23)
        let steps = 7, batch = 3, inputSize = 6, hiddenSize = 40, vocabulary = 9
        let network: any RecurrentNetwork = cell == .lstm
            ? LSTM(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 3, using: &generator)
            : GRU(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 3, using: &generator)
        let features = randomTensor([steps, batch, inputSize], using: &generator)
        let table = randomTensor([vocabulary, inputSize], using: &generator)
        let ids = Tensor<Int32>(shape: [steps, batch], scalars: (0..<(steps * batch)).map { _ in
            Int32.random(in: 0..<Int32(vocabulary), using: &generator)
        })
        let state = randomTensor(network.stateShape(batch: batch), using: &generator)
        let outputGradient = randomTensor([steps, batch, hiddenSize], using: &generator)
        let stateGradient = randomTensor(network.stateShape(batch: batch), using: &generator)

        func run<Network: RecurrentNetwork>(_ network: Network, _ input: RecurrentDriver.Input,
                                            _ schedule: RecurrentPipeline.Schedule) -> [Tensor<Float>] {
            var dropoutGenerator = SplitMix64(seed: 5)
            let forward = RecurrentDriver.run(network, input: input, initialState: state, dropout: dropout,
                                              generator: &dropoutGenerator, keepTrace: true, schedule: schedule)
            let gradients = RecurrentDriver.backward(network, trace: forward.trace, outputGradient: outputGradient,
                                                     finalStateGradient: stateGradient, schedule: schedule)
            return [forward.output, forward.finalState, gradients.input, gradients.initialState]
                + gradients.layers.flatMap(\.tensors)
        }
        for input in [RecurrentDriver.Input.features(features), .tokens(ids, table: table)] {
            let pipelined = run(network, input, .pipelined), layered = run(network, input, .layerByLayer)
            #expect(pipelined.count == layered.count)
            for (index, (tensor, reference)) in zip(pipelined, layered).enumerated() {
                #expect(tensor.shape == reference.shape)
                #expect(Self.maxDifference(tensor.scalars, reference.scalars) < 1e-5, "\(cell) dropout \(dropout) tensor \(index)")
            }
        }
    }

    /// Central differences on loss = Σ output·R + Σ finalState·S with respect to every weight of
    /// layer 0 and the input, against the analytic backward pass.
    @Test(arguments: [RecurrentCell.lstm, .gru]) func backwardMatchesNumericalGradient(cell: RecurrentCell) throws {
        var generator = SplitMix64(seed: 7)
        let steps = 4, batch = 2, inputSize = 3, hiddenSize = 5
        var network: any RecurrentNetwork = cell == .lstm
            ? LSTM(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
            : GRU(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
        func random(_ shape: [Int]) -> Tensor<Float> {
            Tensor(shape: shape, scalars: (0..<shape.reduce(1, *)).map { _ in Float.random(in: -1...1, using: &generator) })
        }
        let input = random([steps, batch, inputSize])
        let state = random(network.stateShape(batch: batch))
        let outputWeights = random([steps, batch, hiddenSize])
        let stateWeights = random(network.stateShape(batch: batch))
        func loss(_ network: any RecurrentNetwork, _ input: Tensor<Float>) -> Float {
            let (output, finalState) = network.forward(input, initialState: state)
            let a = zip(output.scalars, outputWeights.scalars).map { Double($0) * Double($1) }.reduce(0, +)
            let b = zip(finalState.scalars, stateWeights.scalars).map { Double($0) * Double($1) }.reduce(0, +)
            return Float(a + b)
        }
        let (_, _, trace) = network.forwardForTraining(input, initialState: state, generator: &generator)
        let analytic = network.backward(trace, outputGradient: outputWeights, finalStateGradient: stateWeights)

        let numericInput = GradientCheck.numericalGradient(of: { loss(network, $0) }, at: input, epsilon: 1e-2)
        #expect(Self.maxDifference(numericInput.scalars, analytic.input.scalars) < 2e-3)
        for parameter in 0..<4 {
            let original = network.layers[0].tensors[parameter]
            let numeric = GradientCheck.numericalGradient(of: { value in
                var probe = network
                probe.layers[0].tensors[parameter] = value
                return loss(probe, input)
            }, at: original, epsilon: 1e-2)
            #expect(Self.maxDifference(numeric.scalars, analytic.layers[0].tensors[parameter].scalars) < 2e-3,
                    "\(cell) parameter \(parameter)")
        }
        network.layers[0].tensors = network.layers[0].tensors  // keeps `network` a var for the probes
    }

    /// A sequence of no steps through the training passes (the packed weight-gradient path: batch 3):
    /// the output is empty, the final state is the initial one, and back-propagation returns zero
    /// weight gradients and the final state's gradient as the initial state's.
    @Test(arguments: [RecurrentCell.lstm, .gru]) func zeroStepsPassStateThrough(cell: RecurrentCell) throws {
        var generator = SplitMix64(seed: 31)
        let batch = 3, inputSize = 4, hiddenSize = 5
        let network: any RecurrentNetwork = cell == .lstm
            ? LSTM(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
            : GRU(inputSize: inputSize, hiddenSize: hiddenSize, layerCount: 2, using: &generator)
        let state = randomTensor(network.stateShape(batch: batch), using: &generator)
        let stateGradient = randomTensor(network.stateShape(batch: batch), using: &generator)
        let forward = network.forwardForTraining(Tensor(shape: [0, batch, inputSize]), initialState: state, generator: &generator)
        #expect(forward.output.shape == [0, batch, hiddenSize])
        #expect(forward.finalState.scalars == state.scalars)
        let gradients = network.backward(forward.trace, outputGradient: Tensor(shape: [0, batch, hiddenSize]),
                                         finalStateGradient: stateGradient)
        #expect(gradients.initialState.scalars == stateGradient.scalars)
        #expect(gradients.layers.allSatisfy { $0.tensors.allSatisfy { $0.scalars.allSatisfy { $0 == 0 } } })
    }

    @Test func wrongWeightShapeNamesTheTensor() throws {
        var generator = SplitMix64(seed: 3)
        let lstm = LSTM(inputSize: 3, hiddenSize: 4, layerCount: 2, using: &generator)
        var named = Dictionary(uniqueKeysWithValues: lstm.namedParameters(prefix: "rnn.").map { ($0.name, $0.tensor) })
        named["rnn.weight_hh_l1"] = Tensor(shape: [16, 5])
        let wrongShape = #expect(throws: LayerWeightsError.self) {
            try LSTM(inputSize: 3, hiddenSize: 4, layerCount: 2, prefix: "rnn.", tensor: { named[$0] })
        }
        #expect(wrongShape?.description == "weight tensor 'rnn.weight_hh_l1' has shape [16, 5], expected [16, 4] from the configuration")
        named["rnn.bias_ih_l0"] = nil
        #expect(throws: LayerWeightsError.missingTensor("rnn.bias_ih_l0")) {
            try LSTM(inputSize: 3, hiddenSize: 4, layerCount: 2, prefix: "rnn.", tensor: { named[$0] })
        }
        #expect(throws: LayerWeightsError.noLayers) {
            try GRU(inputSize: 3, hiddenSize: 4, layerCount: 0, prefix: "rnn.", tensor: { named[$0] })
        }
    }
}
