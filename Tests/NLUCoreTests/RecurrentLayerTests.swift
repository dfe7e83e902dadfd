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
