import Foundation
import NLUText
import Testing
@testable import NLUEmbeddings
@testable import NLUTransformers

/// Tiny random RoBERTa (byte-level BPE), XLM-R (Unigram + Precompiled) and BERT-with-XLM-R-tokenizer
/// sentence-transformers models (mean pooling, Normalize) against sentence-transformers 5.1.2 /
/// transformers 4.57.6 on 400 real sentences (scripts/fixtures/embeddings_roberta.py). Tolerances
/// as for BERT: min cosine ≥ 0.99999 and element-wise 2e-5 (float32 sums in another order).
@Suite struct RobertaParityTests {
    struct Expected: Decodable {
        struct Model: Decodable {
            var input_ids: [[Int32]]
            var embeddings: [[Float]]
        }
        var texts: [String]
        var max_seq_length: Int
        var models: [String: Model]
    }

    static let expected: Expected = {
        // The fixture is committed with the tests; failing to read it is a broken checkout.
        guard let data = FileManager.default.contents(atPath: EmbeddingFixtures.directory.appendingPathComponent("expected-roberta.json").path),
              let value = try? JSONDecoder().decode(Expected.self, from: data) else {
            fatalError("Tests/Fixtures/embeddings/expected-roberta.json is missing or malformed: run scripts/fixtures/embeddings_roberta.py")
        }
        return value
    }()

    static let models = ["roberta-tiny", "xlmr-tiny", "bert-unigram-tiny"]

    static func directory(_ name: String) -> URL { EmbeddingFixtures.directory.appendingPathComponent(name) }

    @Test(arguments: models)
    func tokenIDsAreWhatSentenceTransformersFeedsTheModel(model: String) throws {
        let embedder = try SentenceEmbedder(modelDirectory: Self.directory(model))
        let reference = try #require(Self.expected.models[model])
        #expect(embedder.maxSequenceLength == Self.expected.max_seq_length)
        var differing: [String] = []
        for (text, ids) in zip(Self.expected.texts, reference.input_ids) where embedder.tokenIDs(text) != ids {
            differing.append(text)
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(reference.input_ids.contains { $0.count == Self.expected.max_seq_length }, "some texts are truncated")
    }

    @Test(arguments: models, [1, 16, 64])
    func embeddingsMatchSentenceTransformersAtAnyBatchSize(model: String, batchSize: Int) throws {
        let embedder = try SentenceEmbedder(modelDirectory: Self.directory(model))
        let reference = try #require(Self.expected.models[model])
        #expect(embedder.dimension == 32 && embedder.normalizesByDefault)
        let vectors = try embedder.embed(Self.expected.texts, options: EmbeddingOptions(batchSize: batchSize))
        let (minCosine, maxDifference) = compare(vectors, reference.embeddings)
        #expect(minCosine >= 0.99999)
        #expect(maxDifference <= 2e-5)
    }

    @Test func architecturesAreReadFromModelType() throws {
        let roberta = try SentenceEmbedder(modelDirectory: Self.directory("roberta-tiny"))
        let xlmr = try SentenceEmbedder(modelDirectory: Self.directory("xlmr-tiny"))
        let bert = try SentenceEmbedder(modelDirectory: Self.directory("bert-unigram-tiny"))
        #expect(roberta.encoder.configuration.architecture == .roberta)
        #expect(xlmr.encoder.configuration.architecture == .roberta)
        #expect(bert.encoder.configuration.architecture == .bert)
        #expect(roberta.encoder.configuration.typeVocabularySize == 1)
        // 42 position rows hold 40 tokens: ids 0 and 1 (padding) are never a text position.
        #expect(roberta.encoder.configuration.maxSequenceLength == 40)
        #expect(roberta.tokenizer is SubwordTokenizer && xlmr.tokenizer is SubwordTokenizer)
    }

    @Test func positionIDsCountFromAfterThePaddingIndex() throws {
        // transformers' create_position_ids_from_input_ids with padding_idx 1.
        let batch = try EncoderBatch(tokenIDs: [[0, 40, 41, 2], [0, 1, 40, 2], [0, 2]], padID: 1)
        #expect(PaddingOffsetPositions.positionIDs(batch, paddingIndex: 1) == [2, 3, 4, 5, 2, 1, 3, 4, 2, 3, 1, 1])
    }

    @Test func int8EmbeddingsStayCloseToF32() throws {
        let f32 = try SentenceEmbedder(modelDirectory: Self.directory("xlmr-tiny"))
        let int8 = try SentenceEmbedder(modelDirectory: Self.directory("xlmr-tiny"), precision: .int8)
        let texts = Array(Self.expected.texts.prefix(100))
        let cosines = zip(try f32.embed(texts), try int8.embed(texts)).map { SentenceEmbedder.similarity($0, $1) }
        #expect(cosines.allSatisfy { $0 >= Int8EmbeddingParityTests.minimumCosine }, "\(cosines.min() ?? 0)")
    }

    @Test func unknownTokenizerModelTypeIsNamed() throws {
        let source = Self.directory("roberta-tiny")
        let json = try String(contentsOf: source.appendingPathComponent("tokenizer.json"), encoding: .utf8)
            .replacingOccurrences(of: #""type": "BPE""#, with: #""type": "WordLevel""#)
            .replacingOccurrences(of: #""type":"BPE""#, with: #""type":"WordLevel""#)
        let directory = try EmbeddingFixtures.variant(of: source, ["tokenizer.json": json])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: BertTokenizerError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains(#"model.type is "WordLevel" (supported: WordPiece, BPE, Unigram)"#) == true)
    }

    @Test func unsupportedNormalizerIsNamed() throws {
        let source = Self.directory("xlmr-tiny")
        let json = try String(contentsOf: source.appendingPathComponent("tokenizer.json"), encoding: .utf8)
            .replacingOccurrences(of: #""type": "Strip""#, with: #""type": "NFKD""#)
        let directory = try EmbeddingFixtures.variant(of: source, ["tokenizer.json": json])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: BertTokenizerError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains(#"normalizer.normalizers[1].type is "NFKD""#) == true)
    }
}
