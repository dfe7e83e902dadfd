import Foundation
import NLUCore
@testable import NLUTransformers

/// One `Tests/Fixtures/training/encoder-gradients-<family>.json`, written by
/// scripts/fixtures/encoder_gradients.py: a batch, the loss weights R (loss = Σ hidden ∘ R over
/// every position), and PyTorch's float64 loss, hidden states and gradient of every parameter.
struct EncoderGradientFixture: Decodable {
    struct Gradient: Decodable {
        let shape: [Int]
        /// Dense values, row-major; or nil for an embedding table stored by its nonzero rows.
        let values: [Double]?
        /// Row index → values, for embedding tables (every other row is zero).
        let rows: [String: [Double]]?

        /// The gradient as a flat row-major array.
        var dense: [Double] {
            if let values { return values }
            let width = shape.count > 1 ? shape[1] : 1
            var result = [Double](repeating: 0, count: shape.reduce(1, *))
            for (row, line) in rows ?? [:] {
                guard let index = Int(row) else { continue }
                for (column, value) in line.enumerated() { result[index * width + column] = value }
            }
            return result
        }
    }

    let family: String
    let fixture: String
    let inputIDs: [[Int32]]
    let tokenTypeIDs: [[Int32]]
    let attentionMask: [[Int32]]
    let lossWeights: [Double]
    let loss: Double
    let hiddenStates: [Double]
    let gradients: [String: Gradient]
    /// Parameter name → PyTorch's own float32 pass's distance from the float64 gradient, by
    /// ``EncoderGradientTests/worstError(_:_:floor:)`` with the test's floor.
    let float32Errors: [String: Double]

    enum CodingKeys: String, CodingKey {
        case family, fixture, loss, gradients
        case float32Errors = "float32_errors"
        case inputIDs = "input_ids", tokenTypeIDs = "token_type_ids", attentionMask = "attention_mask"
        case lossWeights = "R", hiddenStates = "hidden_states"
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Reads the fixture of `family`.
    static func load(_ family: String) throws -> EncoderGradientFixture {
        let url = fixtures.appendingPathComponent("training/encoder-gradients-\(family).json")
        return try JSONDecoder().decode(EncoderGradientFixture.self, from: Data(contentsOf: url))
    }

    /// The checkpoint directory the gradients were computed on.
    var checkpoint: URL { Self.fixtures.appendingPathComponent(fixture) }

    /// The encoder of the checkpoint (the QA fixtures' `qa_outputs` head left unread).
    func encoder(dropoutSeed: UInt64 = 0) throws -> TrainableEncoder {
        try TrainableEncoder(checkpoint: checkpoint, ignoringTaskHead: true, dropoutSeed: dropoutSeed)
    }

    /// The fixture's batch.
    func batch() throws -> EncoderBatch {
        try EncoderBatch(batchSize: inputIDs.count, sequenceLength: inputIDs.first?.count ?? 0,
                         tokenIDs: inputIDs.flatMap { $0 }, tokenTypeIDs: tokenTypeIDs.flatMap { $0 },
                         attentionMask: attentionMask.flatMap { $0 })
    }

    /// R as the hidden states' gradient, [batch, sequence, hidden].
    func outputGradient(hiddenSize: Int) -> Tensor<Float> {
        Tensor(shape: [inputIDs.count, inputIDs.first?.count ?? 0, hiddenSize], scalars: lossWeights.map { Float($0) })
    }

    /// Σ states ∘ R, accumulated in Double.
    func loss(of states: Tensor<Float>) -> Double {
        zip(states.scalars, lossWeights).reduce(0) { $0 + Double($1.0) * $1.1 }
    }
}
