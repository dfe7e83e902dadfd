import Foundation
import NLUCore
import NLUTransformers

/// The span head of a `*ForQuestionAnswering` model, trained with its encoder: one ``Linear`` layer
/// from each token's hidden state to two logits (`qa_outputs`, `[2, hidden]`: answer start, answer end),
/// and the loss of transformers' `BertForQuestionAnswering`: the cross-entropy of the start logits over a
/// window's positions (padding included, as there) against the start position, the same for the end,
/// averaged: (start + end) / 2. Positions are clamped to 0...sequence length, and a position equal to the
/// sequence length is ignored (`ignore_index`), as transformers does for answers outside the input.
/// Gradients checked against autograd (`Tests/Fixtures/training/qa-gradients.json`).
///
///     var random = SplitMix64(seed: 42)
///     let head = QuestionAnsweringHead(hiddenSize: 384, initializerRange: 0.02, using: &random)
///     let (loss, gradients) = head.lossAndGradients(hidden: states, startPositions: [12, 0], endPositions: [14, 0])
///     // gradients.weight, gradients.bias: for the optimizer; gradients.input: d(loss)/d(states)
public struct QuestionAnsweringHead: Sendable {
    /// The checkpoint names of the head's weight and bias, at the root of a `*ForQuestionAnswering` file.
    public static let tensorNames = (weight: "qa_outputs.weight", bias: "qa_outputs.bias")

    /// The layer from hidden state to (start, end) logits, `[2, hidden]` weight and `[2]` bias.
    public var linear: Linear

    /// A head over an existing layer.
    /// - Throws: ``LayerWeightsError`` for a layer without bias or with other than 2 outputs.
    public init(linear: Linear) throws {
        guard linear.outputSize == 2, linear.bias != nil else {
            throw LayerWeightsError.wrongShape("qa_outputs", expected: "[2, hidden] with a [2] bias",
                                               actual: [linear.outputSize, linear.inputSize] + (linear.bias == nil ? [] : [2]))
        }
        self.linear = linear
    }

    /// A new head, initialized as transformers initializes `qa_outputs` (`_init_weights`): weights normal
    /// with mean 0 and standard deviation `initializerRange` (`config.json`'s `initializer_range`, 0.02 by
    /// default), bias 0; the normal draws come from `generator`, so one seed gives one head.
    public init(hiddenSize: Int, initializerRange: Float = 0.02, using generator: inout SplitMix64) {
        var values: [Float] = []
        values.reserveCapacity(2 * hiddenSize)
        while values.count < 2 * hiddenSize {
            // Box-Muller: two uniform draws give two independent normal ones.
            let u = Float.random(in: Float.ulpOfOne..<1, using: &generator), v = Float.random(in: 0..<1, using: &generator)
            let radius = (-2 * Foundation.log(u)).squareRoot() * initializerRange
            values.append(radius * Foundation.cos(2 * .pi * v))
            values.append(radius * Foundation.sin(2 * .pi * v))
        }
        // A [2, hidden] weight and a [2] bias always make a valid layer.
        linear = (try? Linear(weight: Tensor(shape: [2, hiddenSize], scalars: Array(values.prefix(2 * hiddenSize))),
                              bias: Tensor(shape: [2]))) ?? Linear(inputSize: hiddenSize, outputSize: 2, using: &generator)
    }

    /// The head stored in `weights` (`qa_outputs.weight` `[2, hiddenSize]` and `qa_outputs.bias`), or nil
    /// when the file has none (a bare encoder such as all-MiniLM-L6-v2).
    /// - Throws: ``CheckpointError`` or ``SafeTensorsError`` for a head of the wrong shape or with a
    ///   non-finite value.
    public static func stored(in weights: SafeTensors, hiddenSize: Int) throws -> QuestionAnsweringHead? {
        guard weights.info(tensorNames.weight) != nil || weights.info(tensorNames.bias) != nil else { return nil }
        for (name, shape) in [(tensorNames.weight, [2, hiddenSize]), (tensorNames.bias, [2])] {
            guard let info = weights.info(name) else {
                throw CheckpointError.missingTensor(name: name, file: weights.url.lastPathComponent)
            }
            guard info.shape == shape else {
                throw CheckpointError.wrongShape(name: name, expected: shape, actual: info.shape, file: weights.url.lastPathComponent)
            }
        }
        return try QuestionAnsweringHead(linear: Linear(weight: weights.finiteFloatTensor(tensorNames.weight),
                                                        bias: weights.finiteFloatTensor(tensorNames.bias)))
    }

    /// Start and end logits `[batch, sequence]` of hidden states `[batch, sequence, hidden]`.
    public func logits(_ hidden: Tensor<Float>) -> (start: Tensor<Float>, end: Tensor<Float>) {
        let both = linear(hidden).scalars
        let shape = Array(hidden.shape.dropLast())
        let positions = both.count / 2
        return (Tensor(shape: shape, scalars: (0..<positions).map { both[2 * $0] }),
                Tensor(shape: shape, scalars: (0..<positions).map { both[2 * $0 + 1] }))
    }

    /// The loss of hidden states `[batch, sequence, hidden]` against one start and one end position per
    /// sequence, and the gradients of the layer and of `hidden`. Rows whose position is ignored add nothing;
    /// with every row ignored the loss is 0.
    /// - Precondition: one start and one end position per sequence.
    public func lossAndGradients(hidden: Tensor<Float>, startPositions: [Int], endPositions: [Int])
        -> (loss: Float, gradients: Linear.Gradients) {
        precondition(hidden.rank == 3, "QA head: hidden states \(hidden.shape), expected [batch, sequence, hidden]")
        let (batch, length) = (hidden.shape[0], hidden.shape[1])
        precondition(startPositions.count == batch && endPositions.count == batch,
                     "QA head: \(startPositions.count) start and \(endPositions.count) end positions for \(batch) sequences")
        let both = linear(hidden).scalars
        var dBoth = [Float](repeating: 0, count: both.count)
        var loss: Float = 0
        for (column, positions) in [startPositions, endPositions].enumerated() {
            // transformers clamps to [0, length] and ignores `length` (ignored_index).
            let kept = (0..<batch).filter { min(max(positions[$0], 0), length) < length }
            guard !kept.isEmpty else { continue }
            var logits = [Float](repeating: 0, count: kept.count * length)
            for (row, sequence) in kept.enumerated() {
                for position in 0..<length { logits[row * length + position] = both[2 * (sequence * length + position) + column] }
            }
            let targets = kept.map { Int32(max(positions[$0], 0)) }
            let (partLoss, dLogits) = SoftmaxCrossEntropy.lossAndGradient(
                logits: Tensor(shape: [kept.count, length], scalars: logits), targets: targets)
            loss += partLoss / 2
            let gradient = dLogits.scalars
            for (row, sequence) in kept.enumerated() {
                for position in 0..<length {
                    dBoth[2 * (sequence * length + position) + column] = gradient[row * length + position] / 2
                }
            }
        }
        let gradients = linear.backward(input: hidden, outputGradient: Tensor(shape: [batch, length, 2], scalars: dBoth))
        return (loss, gradients)
    }
}
