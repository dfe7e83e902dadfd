import Foundation
import NLUCore
import NLUText
import Testing
@testable import NLUEmbeddings
@testable import NLUTransformers

/// A tiny random MPNet sentence-transformers model laid out as all-mpnet-base-v2 (RoBERTa template,
/// mean pooling, Normalize) against sentence-transformers 5.1.2 / transformers 4.57.6 and
/// `tokenizers` 0.22.2 on the same texts (scripts/fixtures/embeddings_mpnet.py). Tolerances as for
/// BERT: min cosine ≥ 0.99999 and element-wise 2e-5 (float32 sums in a different order).
@Suite struct MPNetParityTests {
    static let model = EmbeddingFixtures.directory.appendingPathComponent("mpnet-tiny")

    struct Expected: Decodable {
        struct Tokenized: Decodable {
            var texts: [String]
            var ids: [[Int32]]
            var offsets: [[[Int]]]
        }
        var texts: [String]
        var max_seq_length: Int
        var input_ids: [[Int32]]
        var full: [[Float]]
        var tokenizer: Tokenized
        var buckets: [Int]
    }

    static let expected: Expected = {
        // The fixture is committed with the tests; failing to read it is a broken checkout.
        guard let data = FileManager.default.contents(atPath: EmbeddingFixtures.directory.appendingPathComponent("expected-mpnet.json").path),
              let value = try? JSONDecoder().decode(Expected.self, from: data) else {
            fatalError("Tests/Fixtures/embeddings/expected-mpnet.json is missing or malformed: run scripts/fixtures/embeddings_mpnet.py")
        }
        return value
    }()

    @Test func relativePositionBucketsAreTransformers() {
        let buckets = (-1000...1000).map { MPNetPositions.bucket(relative: $0) }
        #expect(buckets == Self.expected.buckets)
    }

    @Test func positionIDsCountNonPaddingTokensFromTwo() throws {
        // transformers' create_position_ids_from_input_ids: padding (id 1) keeps position 1.
        let batch = try EncoderBatch(tokenIDs: [[0, 40, 41, 2], [0, 1, 40, 2], [0, 2]], padID: 1)
        #expect(MPNetPositions.positionIDs(batch) == [2, 3, 4, 5, 2, 1, 3, 4, 2, 3, 1, 1])
    }

    @Test func tokenizerMatchesTokenizersWithTheRobertaTemplate() throws {
        let tokenizer = try BertTokenizer(modelDirectory: Self.model)
        #expect([tokenizer.clsID, tokenizer.sepID, tokenizer.padID, tokenizer.unknownID] == [0, 2, 1, 5])
        #expect(tokenizer.options.template == .roberta)
        let reference = Self.expected.tokenizer
        for (index, text) in reference.texts.enumerated() {
            let sequence = tokenizer.tokenize(text)
            #expect(sequence.ids == reference.ids[index], "\(text)")
            #expect(sequence.offsets.map { [$0.lowerBound, $0.upperBound] } == reference.offsets[index], "\(text)")
        }
        #expect(tokenizer.encode("fox").ids == [0, 140, 2])
        #expect(throws: BertTokenizerError.self) { try tokenizer.encodePair("who?", "the fox") }
    }

    @Test func tokenIDsAreWhatSentenceTransformersFeedsTheModel() throws {
        let embedder = try SentenceEmbedder(modelDirectory: Self.model)
        // max_seq_length, not tokenizer.json's truncation (128) or fixed padding (128).
        #expect(embedder.maxSequenceLength == Self.expected.max_seq_length)
        for (text, ids) in zip(Self.expected.texts, Self.expected.input_ids) {
            #expect(embedder.tokenIDs(text) == ids, "\(text)")
        }
        #expect(Self.expected.input_ids.contains { $0.count == Self.expected.max_seq_length }, "some texts are truncated")
    }

    @Test(arguments: [1, 3, 32])
    func embeddingsMatchSentenceTransformersAtAnyBatchSize(batchSize: Int) throws {
        let embedder = try SentenceEmbedder(modelDirectory: Self.model)
        #expect(embedder.encoder.configuration.architecture == .mpnet)
        #expect(embedder.dimension == 32 && embedder.normalizesByDefault)
        let vectors = try embedder.embed(Self.expected.texts, options: EmbeddingOptions(batchSize: batchSize))
        let (minCosine, maxDifference) = compare(vectors, Self.expected.full)
        #expect(minCosine >= 0.99999)
        #expect(maxDifference <= 2e-5)
    }

    @Test func int8EmbeddingsStayCloseToF32() throws {
        try CPULevel.with(.supported) {  // one grid from loading to comparing (Int8EmbeddingParityTests.minimumCosine)
            let f32 = try SentenceEmbedder(modelDirectory: Self.model)
            let int8 = try SentenceEmbedder(modelDirectory: Self.model, precision: .int8)
            let reference = try f32.embed(Self.expected.texts), quantized = try int8.embed(Self.expected.texts)
            let cosines = zip(reference, quantized).map { SentenceEmbedder.similarity($0, $1) }
            #expect(cosines.allSatisfy { $0 >= Int8EmbeddingParityTests.minimumCosine }, "\(cosines)")
            #expect(cosines.contains { $0 < 1 }, "the dense layers ran in INT8")
        }
    }

    @Test func relativeBiasCoversEveryDistanceOfTheBatchPerHead() throws {
        // One value per head and distance -(L-1)...(L-1), from the checkpoint's [32, heads] table.
        let embedder = try SentenceEmbedder(modelDirectory: Self.model)
        let ids = try #require(Self.expected.input_ids.first)
        let batch = try EncoderBatch(tokenIDs: [ids], padID: 1)
        let encoder = try #require(embedder.encoder.encoder as? MPNetEncoder)
        let bias = try #require(encoder.attentionBias(sequenceLength: batch.sequenceLength))
        #expect(bias.values.count == 4 * (2 * ids.count - 1))
        #expect(Set(bias.values).count > 4, "the bias varies with the distance")
    }

    @Test func tooFewRelativeBucketsIsAConfigurationError() throws {
        let config = try String(contentsOf: Self.model.appendingPathComponent("config.json"), encoding: .utf8)
            .replacingOccurrences(of: #""relative_attention_num_buckets": 32"#, with: #""relative_attention_num_buckets": 16"#)
        let directory = try EmbeddingFixtures.variant(of: Self.model, ["config.json": config])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: CheckpointError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("unsupported relative_attention_num_buckets \"16\"") == true)
    }

    @Test func unsupportedModelTypeIsNamed() throws {
        let config = try String(contentsOf: Self.model.appendingPathComponent("config.json"), encoding: .utf8)
            .replacingOccurrences(of: #""model_type": "mpnet""#, with: #""model_type": "deberta-v2""#)
        let directory = try EmbeddingFixtures.variant(of: Self.model, ["config.json": config])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: CheckpointError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error == .unreadableFile(path: directory.appendingPathComponent("config.json").path,
                                         reason: #"unsupported model_type "deberta-v2" (supported: bert, distilbert, mpnet, roberta, xlm-roberta)"#))
    }
}
