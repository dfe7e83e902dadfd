import Foundation
import NLUCore
import Testing
@testable import NLUTransformers

/// The trainable encoder against the inference encoder, its dropout, and finite differences.
@Suite struct TrainableEncoderTests {
    /// The inference encoder of a checkpoint directory, task head left unread (the QA fixtures).
    static func inferenceEncoder(_ directory: URL) throws -> any WorkspaceEncoder {
        let checkpoint = try CheckpointDirectory(directory)
        let configuration = try checkpoint.configuration()
        let tensors = CheckpointTensors(file: try checkpoint.weights(), family: configuration.architecture.family)
        return try configuration.architecture.family.makeEncoder(configuration: configuration, tensors: tensors, precision: .f32)
    }

    /// Every family, and BERT stored as F16, BF16 and with the legacy `LayerNorm.gamma/beta` names.
    static let checkpoints = ["qa/bert-tiny", "qa/bert-tiny-gelu-new", "embeddings/minilm-tiny", "embeddings/roberta-tiny",
                              "embeddings/mpnet-tiny", "qa/distilbert-tiny", "qa/bert-tiny-f16", "qa/bert-tiny-bf16",
                              "qa/bert-tiny-gamma-beta"]

    /// Three sequences of different lengths (ids 3 ..< 40, never a padding id), right-padded.
    static func batch(padID: Int32, tokenTypes: Bool) throws -> EncoderBatch {
        let ids: [[Int32]] = [[3, 17, 25, 9, 31, 12, 4], [3, 22, 5, 4], [3, 4]]
        let types = ids.map { row in row.indices.map { tokenTypes && $0 >= row.count / 2 ? Int32(1) : 0 } }
        return try EncoderBatch(tokenIDs: ids, tokenTypeIDs: types, padID: padID)
    }

    @Test(arguments: checkpoints)
    func trainingForwardEqualsInferenceHiddenStates(checkpoint: String) throws {
        let directory = EncoderGradientFixture.fixtures.appendingPathComponent(checkpoint)
        let encoder = try TrainableEncoder(checkpoint: directory, ignoringTaskHead: true)
        let config = encoder.configuration
        let batch = try Self.batch(padID: Int32(encoder.layout.wordPaddingIndex), tokenTypes: config.typeVocabularySize > 1)
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let training = try encoder.forward(batch, workspace: workspace).scalars
        let inference = try Self.inferenceEncoder(directory).hiddenStates(batch).scalars
        // The inference pass leaves padding rows unwritten: compare attended positions only.
        var worst: Float = 0
        for row in 0..<(batch.batchSize * batch.sequenceLength) where batch.attentionMask[row] != 0 {
            for column in 0..<config.hiddenSize {
                let index = row * config.hiddenSize + column
                worst = max(worst, abs(training[index] - inference[index]))
            }
        }
        #expect(worst <= 1e-5, "\(checkpoint): training forward differs from inference by \(worst)")
    }

    @Test func seededDropoutRunsRepeatAndDiffer() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let batch = try fixture.batch()
        func run(seed: UInt64, dropout: EncoderDropout?) throws -> (states: [Float], gradient: [Float]) {
            let encoder = try fixture.encoder(dropoutSeed: seed)
            encoder.dropout = dropout
            let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
            let states = try encoder.forward(batch, workspace: workspace)
            try encoder.backward(fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize), workspace: workspace)
            return (states.scalars, encoder.parameters.gradient("encoder.layer.0.attention.self.query.weight")?.scalars ?? [])
        }
        let dropout = EncoderDropout(hidden: 0.1, attention: 0.1)
        let first = try run(seed: 7, dropout: dropout), again = try run(seed: 7, dropout: dropout)
        #expect(first.states == again.states)
        #expect(first.gradient == again.gradient)
        let other = try run(seed: 8, dropout: dropout), none = try run(seed: 7, dropout: nil)
        #expect(first.states != other.states)
        #expect(first.states != none.states)
        let zero = try run(seed: 7, dropout: EncoderDropout(hidden: 0, attention: 0))
        #expect(zero.states == none.states)
        #expect(zero.gradient == none.gradient)
    }

    @Test func sinusoidalPositionTableGetsNoGradient() throws {
        let fixture = try EncoderGradientFixture.load("distilbert")
        let checkpoint = try CheckpointDirectory(fixture.checkpoint)
        let encoder = try TrainableEncoder(configuration: checkpoint.configuration(), weights: checkpoint.weights(),
                                           sinusoidalPositions: true, ignoringTaskHead: true)
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        _ = try encoder.forward(batch, workspace: workspace)
        try encoder.backward(fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize), workspace: workspace)
        #expect(encoder.parameters.gradient("embeddings.position_embeddings.weight")?.scalars.allSatisfy { $0 == 0 } == true)
        #expect(encoder.parameters.gradient("embeddings.word_embeddings.weight")?.scalars.contains { $0 != 0 } == true)
    }

    @Test func backwardAccumulatesUntilZeroed() throws {
        let fixture = try EncoderGradientFixture.load("roberta")
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let gradient = fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize)
        let name = "encoder.layer.1.intermediate.dense.weight"
        _ = try encoder.forward(batch, workspace: workspace)
        try encoder.backward(gradient, workspace: workspace)
        let once = try #require(encoder.parameters.gradient(name))
        try encoder.backward(gradient, workspace: workspace)
        let twice = try #require(encoder.parameters.gradient(name))
        // The copy taken after one pass keeps its values: the store writes its own storage.
        #expect(once.scalars != twice.scalars)
        #expect(zip(once.scalars, twice.scalars).allSatisfy { abs($1 - 2 * $0) <= 1e-6 * max(1, abs($1)) })
        encoder.zeroGradients()
        #expect(encoder.parameters.gradients.allSatisfy { $0.scalars.allSatisfy { $0 == 0 } })
    }

    @Test func dropoutProbabilityOutsideRangeIsRefused() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        encoder.dropout = EncoderDropout(hidden: 1, attention: 0)
        #expect(throws: ModelError.self) { try encoder.forward(batch, workspace: workspace) }
    }

    @Test func backwardWithoutForwardAndMismatchedShapesAreRefused() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let gradient = fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize)
        #expect(throws: ModelError.self) { try encoder.backward(gradient, workspace: workspace) }
        let other = try encoder.makeWorkspace(batchSize: 1, sequenceLength: batch.sequenceLength)
        #expect(throws: ModelError.self) { try encoder.forward(batch, workspace: other) }
        #expect(throws: ModelError.self) {
            try encoder.makeWorkspace(batchSize: 1, sequenceLength: encoder.configuration.maxSequenceLength + 1)
        }
    }

    /// Central differences of the loss Σ hidden ∘ R for a few parameters (an MPNet bias-table entry
    /// among them), against the backward pass: F32 differences at ε = 1e-2 agree to about 1e-2.
    @Test(arguments: ["bert", "mpnet"])
    func backwardAgreesWithFiniteDifferences(family: String) throws {
        let fixture = try EncoderGradientFixture.load(family)
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        _ = try encoder.forward(batch, workspace: workspace)
        try encoder.backward(fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize), workspace: workspace)
        let parameters = encoder.parameters
        let probes = parameters.names.enumerated().filter { _, name in
            name.hasSuffix("LayerNorm.weight") || name.hasSuffix("intermediate.dense.weight") || name.contains("relative_attention_bias")
        }.map(\.offset)
        #expect(!probes.isEmpty)
        for index in probes {
            let element = parameters.values[index].count / 3
            let analytic = Double(parameters.gradients[index].scalars[element])
            let original = parameters.values[index].scalars[element]
            let epsilon: Float = 1e-2
            func loss(at value: Float) throws -> Double {
                parameters.values[index].withUnsafeMutableBufferPointer { $0[element] = value }
                return fixture.loss(of: try encoder.forward(batch, workspace: workspace))
            }
            let numeric = (try loss(at: original + epsilon) - loss(at: original - epsilon)) / Double(2 * epsilon)
            _ = try loss(at: original)
            #expect(abs(numeric - analytic) <= 1e-2 * max(1, abs(analytic)),
                    "\(family): \(parameters.names[index])[\(element)] numeric \(numeric), backward \(analytic)")
        }
    }
}
