import Foundation
import NLUCore
import Testing
@testable import NLUQuestionAnswering

/// Encoder outputs against PyTorch's (goldens from scripts/fixtures/qa.py): start and end
/// logits within 1e-4 absolute, for BERT, DistilBERT, gelu_new, F16, BF16 and gamma/beta checkpoints.
@Suite struct EncoderTests {
    static let tolerance: Float = 1e-4

    static func maxDifference(_ a: some Collection<Float>, _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? .infinity
    }

    @Test func goldensArePresent() {
        #expect(QAFixtures.goldens.logits.count == 12)
        #expect(QAFixtures.goldens.pipeline.count >= 30)
    }

    @Test(arguments: ["bert-tiny", "distilbert-tiny", "bert-tiny-gelu-new", "bert-tiny-f16", "bert-tiny-bf16", "bert-tiny-gamma-beta"])
    func logitsMatchPyTorch(model name: String) throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model(name))
        let cases = QAFixtures.goldens.logits.filter { $0.model == name }
        #expect(cases.count == 2)
        for item in cases {
            let batch = try EncoderBatch(tokenIDs: [item.input_ids], tokenTypeIDs: [item.token_type_ids], padID: 0)
            let (start, end) = try model.logits(batch)
            #expect(Self.maxDifference(start, item.start_logits) < Self.tolerance, "\(name) start: \(item.question)")
            #expect(Self.maxDifference(end, item.end_logits) < Self.tolerance, "\(name) end: \(item.question)")
        }
    }

    @Test(arguments: ["bert-tiny", "distilbert-tiny"])
    func paddedBatchGivesTheSameLogitsAsSingleSequences(model name: String) throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model(name))
        let cases = QAFixtures.goldens.logits.filter { $0.model == name }
        let batch = try EncoderBatch(tokenIDs: cases.map(\.input_ids), tokenTypeIDs: cases.map(\.token_type_ids), padID: 0)
        #expect(batch.sequenceLength == cases.map(\.input_ids.count).max())
        let (start, end) = try model.logits(batch)
        for (row, item) in cases.enumerated() {
            let base = row * batch.sequenceLength
            let count = item.input_ids.count
            #expect(Self.maxDifference(start[base..<(base + count)], item.start_logits) < Self.tolerance)
            #expect(Self.maxDifference(end[base..<(base + count)], item.end_logits) < Self.tolerance)
        }
    }

    /// The feed-forward layer runs in chunks of rows when a pass has many (many windows of a long
    /// document): each row's result does not depend on the chunking, bit for bit.
    @Test(arguments: ["bert-tiny", "distilbert-tiny"])
    func feedForwardChunksGiveTheSameStates(model name: String) throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model(name))
        let cases = QAFixtures.goldens.logits.filter { $0.model == name }
        let batch = try EncoderBatch(tokenIDs: cases.map(\.input_ids), tokenTypeIDs: cases.map(\.token_type_ids), padID: 0)
        let rows = batch.batchSize * batch.sequenceLength, size = model.configuration.hiddenSize * rows
        let whole = try model.encoder.encode(batch)
        let expected = Array(UnsafeBufferPointer(start: whole.hidden, count: size))
        for chunk in [1, 7, rows - 1] {
            let chunked = try model.encoder.encode(batch, feedForwardRows: chunk)
            #expect(Array(UnsafeBufferPointer(start: chunked.hidden, count: size)) == expected, "\(name), chunks of \(chunk) rows")
        }
    }

    @Test func modelFeaturesUseTheCoreMLSampleNames() throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model("bert-tiny"))
        let item = try #require(QAFixtures.goldens.logits.first { $0.model == "bert-tiny" })
        let shape = [1, item.input_ids.count]
        let output = try model.prediction(from: DictionaryFeatureProvider([
            "wordIDs": .int32Tensor(Tensor(shape: shape, scalars: item.input_ids)),
            "wordTypes": .int32Tensor(Tensor(shape: shape, scalars: item.token_type_ids)),
        ]))
        let start = try #require(output.featureValue(for: "startLogits")?.floatTensorValue)
        let end = try #require(output.featureValue(for: "endLogits")?.floatTensorValue)
        #expect(start.shape == shape && end.shape == shape)
        #expect(Self.maxDifference(start.scalars, item.start_logits) < Self.tolerance)
        #expect(Self.maxDifference(end.scalars, item.end_logits) < Self.tolerance)
        #expect(model.modelDescription.inputs.map(\.name) == ["wordIDs", "wordTypes", "attentionMask"])
        #expect(model.modelDescription.outputs.map(\.name) == ["startLogits", "endLogits"])
    }

    @Test func batchedPredictionsMatchPyTorchPerInput() throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model("distilbert-tiny"))
        let cases = QAFixtures.goldens.logits.filter { $0.model == "distilbert-tiny" }
        let inputs: [FeatureProvider] = cases.map { item in
            DictionaryFeatureProvider(["wordIDs": .int32Tensor(Tensor(shape: [1, item.input_ids.count], scalars: item.input_ids))])
        }
        let outputs = try model.predictions(from: inputs)
        #expect(outputs.count == cases.count)
        for (output, item) in zip(outputs, cases) {
            let start = try #require(output.featureValue(for: "startLogits")?.floatTensorValue)
            let end = try #require(output.featureValue(for: "endLogits")?.floatTensorValue)
            #expect(start.shape == [1, item.input_ids.count])
            #expect(Self.maxDifference(start.scalars, item.start_logits) < Self.tolerance)
            #expect(Self.maxDifference(end.scalars, item.end_logits) < Self.tolerance)
        }
    }

    @Test func modelRejectsOutOfRangeIDsAndMissingInputs() throws {
        let model = try BertQAModel(modelDirectory: QAFixtures.model("bert-tiny"))
        let bad = Tensor<Int32>(shape: [1, 3], scalars: [2, 99_999, 3])
        #expect(throws: ModelError.self) {
            try model.prediction(from: DictionaryFeatureProvider(["wordIDs": .int32Tensor(bad)]))
        }
        #expect(throws: ModelError.self) { try model.prediction(from: DictionaryFeatureProvider()) }
        let tooLong = Tensor<Int32>(shape: [1, 600], repeating: 5)
        #expect(throws: ModelError.self) {
            try model.prediction(from: DictionaryFeatureProvider(["wordIDs": .int32Tensor(tooLong)]))
        }
    }
}
