import Foundation
import NLUCore

/// The intent classifier's network, SwiftNLC's shape: sparse features → ReLU hidden layers →
/// softmax over the classes. The first layer stores one row of `hiddenSizes[0]` weights per
/// feature (`input.weight` [features, hidden], an embedding bag), so a forward pass only reads the
/// rows of the features an utterance has; the other layers are dense, in PyTorch's `nn.Linear`
/// layout (`hidden.N.weight` [out, in], `output.weight` [classes, last hidden]). A network without
/// hidden layers (a fine-tuned encoder's head over its dense pooled vector) has no input layer: the
/// features go straight to `output.weight` [classes, features], as `nn.Linear` holds them.
///
///     let probabilities = network.probabilities(for: featurizer.vector(for: "play jazz"))
public struct IntentNetwork: Sendable {
    /// `input.weight` [features, hidden₀]; nil in a network without hidden layers.
    public let inputWeight: Tensor<Float>?
    /// `input.bias` [hidden₀]; nil in a network without hidden layers.
    public let inputBias: Tensor<Float>?
    /// `hidden.N.weight` [hiddenₙ₊₁, hiddenₙ].
    public let hiddenWeights: [Tensor<Float>]
    /// `hidden.N.bias` [hiddenₙ₊₁].
    public let hiddenBiases: [Tensor<Float>]
    /// `output.weight` [classes, last hidden].
    public let outputWeight: Tensor<Float>
    /// `output.bias` [classes].
    public let outputBias: Tensor<Float>

    /// Assembles a network from its weights, checking that the shapes chain. Without `inputWeight`
    /// and `inputBias` (both nil) the network has no hidden layer: `outputWeight` [classes, features]
    /// maps the features to the logits.
    /// - Throws: ``IntentClassifierError/invalidModel(_:)`` naming the tensor whose shape is wrong.
    public init(inputWeight: Tensor<Float>?, inputBias: Tensor<Float>?, hiddenWeights: [Tensor<Float>],
                hiddenBiases: [Tensor<Float>], outputWeight: Tensor<Float>, outputBias: Tensor<Float>) throws {
        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw IntentClassifierError.invalidModel(message()) }
        }
        var width: Int
        if let inputWeight {
            try check(inputWeight.rank == 2, "input.weight must be [features, hidden], is \(inputWeight.shape)")
            width = inputWeight.shape[1]
            try check(inputBias?.shape == [width], "input.bias must be [\(width)], is \(inputBias.map { "\($0.shape)" } ?? "missing")")
        } else {
            try check(inputBias == nil && hiddenWeights.isEmpty, "input.weight is missing")
            try check(outputWeight.rank == 2, "output.weight must be [classes, features], is \(outputWeight.shape)")
            width = outputWeight.shape[1]
        }
        try check(hiddenWeights.count == hiddenBiases.count, "hidden weights and biases differ in number")
        for (index, (weight, bias)) in zip(hiddenWeights, hiddenBiases).enumerated() {
            try check(weight.rank == 2 && weight.shape[1] == width, "hidden.\(index).weight must be [out, \(width)], is \(weight.shape)")
            width = weight.shape[0]
            try check(bias.shape == [width], "hidden.\(index).bias must be [\(width)], is \(bias.shape)")
        }
        try check(outputWeight.rank == 2 && outputWeight.shape[1] == width, "output.weight must be [classes, \(width)], is \(outputWeight.shape)")
        try check(outputBias.shape == [outputWeight.shape[0]], "output.bias must be [\(outputWeight.shape[0])], is \(outputBias.shape)")
        self.inputWeight = inputWeight?.contiguous()
        self.inputBias = inputBias?.contiguous()
        self.hiddenWeights = hiddenWeights.map { $0.contiguous() }
        self.hiddenBiases = hiddenBiases.map { $0.contiguous() }
        self.outputWeight = outputWeight.contiguous()
        self.outputBias = outputBias.contiguous()
    }

    /// The number of input features.
    public var inputDimension: Int { inputWeight?.shape[0] ?? outputWeight.shape[1] }
    /// The number of classes.
    public var classCount: Int { outputWeight.shape[0] }
    /// The hidden layer sizes (none for a linear network).
    public var hiddenSizes: [Int] { inputWeight.map { [$0.shape[1]] + hiddenWeights.map { $0.shape[0] } } ?? [] }

    /// The weights under their package names.
    public var namedWeights: [String: Tensor<Float>] {
        var result = ["output.weight": outputWeight, "output.bias": outputBias]
        if let inputWeight, let inputBias {
            result["input.weight"] = inputWeight
            result["input.bias"] = inputBias
        }
        for (index, (weight, bias)) in zip(hiddenWeights, hiddenBiases).enumerated() {
            result["hidden.\(index).weight"] = weight
            result["hidden.\(index).bias"] = bias
        }
        return result
    }

    /// Class probabilities (softmax of the logits divided by `temperature`, a calibrated model's) for
    /// one feature vector: finite, summing to 1, for any finite weights (see ``wideLogits(for:)``).
    public func probabilities(for features: SparseVector, temperature: Float = 1) -> [Float] {
        var logits = finiteLogits(for: features)
        if temperature != 1 {
            let limit = Float.greatestFiniteMagnitude
            for i in logits.indices { logits[i] = min(max(logits[i] / temperature, -limit), limit) }
        }
        Self.softmax(&logits)
        return logits
    }

    /// The logits, finite for any finite weights: the fast path, else ``wideLogits(for:)``.
    func finiteLogits(for features: SparseVector) -> [Float] {
        let logits = logits(for: features)
        return logits.allSatisfy(\.isFinite) ? logits : wideLogits(for: features)
    }

    /// The logits, in Float (the fast path).
    func logits(for features: SparseVector) -> [Float] {
        guard let inputWeight, let inputBias else { return Self.dense(outputWeight, outputBias, denseInput(features)) }
        var activations = inputBias.scalars
        let width = activations.count
        inputWeight.withUnsafeBufferPointer { rows in
            activations.withUnsafeMutableBufferPointer { h in
                for (feature, value) in zip(features.indices, features.values) where feature >= 0 && Int(feature) < inputDimension {
                    let row = rows.baseAddress! + Int(feature) * width
                    for i in 0..<width { h[i] += value * row[i] }
                }
                for i in 0..<width where h[i] < 0 { h[i] = 0 }
            }
        }
        for (weight, bias) in zip(hiddenWeights, hiddenBiases) {
            activations = Self.dense(weight, bias, activations)
            for i in activations.indices where activations[i] < 0 { activations[i] = 0 }
        }
        return Self.dense(outputWeight, outputBias, activations)
    }

    /// The logits for weights so large (finite, as a model file may hold them: 1e30) that Float
    /// overflows: every sum in Double, where products of two Floats (at most 1.2e77) and sums of as
    /// many of them as a process can hold stay finite, and each layer's output held within Float's
    /// range. A Float overflow had turned the logits into infinities (∞ − ∞ = NaN) and every
    /// confidence into NaN; a model with ordinary weights never takes this path, so its answers are
    /// unchanged.
    func wideLogits(for features: SparseVector) -> [Float] {
        let limit = Double(Float.greatestFiniteMagnitude)
        func saturated(_ x: Double, relu: Bool) -> Double { min(max(x, relu ? 0 : -limit), limit) }
        var activations: [Double]
        if let inputWeight, let inputBias {
            let width = inputWeight.shape[1]
            activations = inputBias.scalars.map(Double.init)
            inputWeight.withUnsafeBufferPointer { rows in
                for (feature, value) in zip(features.indices, features.values) where feature >= 0 && Int(feature) < inputDimension {
                    let row = rows.baseAddress! + Int(feature) * width
                    for i in 0..<width { activations[i] += Double(value) * Double(row[i]) }
                }
            }
            activations = activations.map { saturated($0, relu: true) }
        } else {
            activations = denseInput(features).map(Double.init)
        }
        func dense(_ weight: Tensor<Float>, _ bias: Tensor<Float>, relu: Bool) {
            let columns = weight.shape[1]
            let biases = bias.scalars
            activations = weight.withUnsafeBufferPointer { w in
                biases.indices.map { row in
                    var sum = Double(biases[row])
                    for column in 0..<columns { sum += Double(w[row * columns + column]) * activations[column] }
                    return saturated(sum, relu: relu)
                }
            }
        }
        for (weight, bias) in zip(hiddenWeights, hiddenBiases) { dense(weight, bias, relu: true) }
        dense(outputWeight, outputBias, relu: false)
        return activations.map(Float.init)
    }

    /// Class probabilities for a dense feature vector (the Core-ML-like `embeddings` input).
    public func probabilities(forDense features: [Float], temperature: Float = 1) -> [Float] {
        var sparse = SparseVector()
        for (index, value) in features.enumerated() where value != 0 {
            sparse.indices.append(Int32(index))
            sparse.values.append(value)
        }
        return probabilities(for: sparse, temperature: temperature)
    }

    /// `features` as a dense vector of ``inputDimension`` values (features past it dropped, as the
    /// input layer drops them).
    private func denseInput(_ features: SparseVector) -> [Float] {
        var values = [Float](repeating: 0, count: inputDimension)
        for (feature, value) in zip(features.indices, features.values) where feature >= 0 && Int(feature) < values.count {
            values[Int(feature)] += value
        }
        return values
    }

    /// `weight · x + bias` for weight [out, in] (NLUCore's ``Linear``, one row).
    static func dense(_ weight: Tensor<Float>, _ bias: Tensor<Float>, _ x: [Float]) -> [Float] {
        let rows = weight.shape[0], columns = weight.shape[1]
        var y = [Float](repeating: 0, count: rows)
        weight.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                x.withUnsafeBufferPointer { input in
                    y.withUnsafeMutableBufferPointer { output in
                        guard let w = w.baseAddress, let x = input.baseAddress, let y = output.baseAddress else { return }
                        Linear.forward(x, rows: 1, weight: w, bias: b.baseAddress, inputSize: columns, outputSize: rows, into: y)
                    }
                }
            }
        }
        return y
    }

    /// Max-subtracted softmax in place.
    static func softmax(_ values: inout [Float]) {
        guard let largest = values.max() else { return }
        var sum: Float = 0
        for i in values.indices {
            values[i] = expf(values[i] - largest)
            sum += values[i]
        }
        for i in values.indices { values[i] /= sum }
    }
}
