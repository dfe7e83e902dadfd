import Foundation
import Testing
@testable import NLUEmbeddings

/// The slot tagger's contextual word vectors against sentence-transformers 5.1.2's token embeddings of
/// the fixture model, averaged over each word's pieces in Python (scripts/fixtures/word_vectors.py):
/// several-piece words, apostrophes and numbers that BERT splits differently from our word tokenizer,
/// accents, words truncated away (zeros), an empty text. Tolerance 2e-4 element-wise (hidden states
/// of float32 sums in another order, before the Dense and Normalize modules that shrink the sentence
/// embeddings' differences), and the sentence embeddings of the same pass as in the parity tests.
@Suite struct WordVectorParityTests {
    struct Record: Decodable {
        var text: String
        var words: [[Int]]
        var vectors: [[Float]]
        var sentence: [Float]
    }
    struct Fixture: Decodable { var records: [Record] }

    static func fixture() throws -> Fixture {
        let url = EmbeddingFixtures.directory.appendingPathComponent("word_vectors.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    @Test(arguments: [1, 3, 32])
    func wordVectorsMatchTheMeanOfTheirPiecesAtAnyBatchSize(batchSize: Int) throws {
        let fixture = try Self.fixture()
        let embedder = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        let words = fixture.records.map { $0.words.map { $0[0]..<$0[1] } }
        let results = try embedder.embedWithWordVectors(fixture.records.map(\.text), words: words,
                                                        options: EmbeddingOptions(batchSize: batchSize))
        #expect(results.count == fixture.records.count)
        var truncated = 0
        for (record, result) in zip(fixture.records, results) {
            #expect(result.words.count == record.vectors.count, "\(record.text)")
            for (actual, expected) in zip(result.words, record.vectors) {
                #expect(actual.count == 32)
                let difference = zip(actual, expected).map { abs($0 - $1) }.max() ?? 0
                #expect(difference <= 2e-4, "\(record.text): \(difference)")
                if expected.allSatisfy({ $0 == 0 }) { truncated += 1; #expect(actual.allSatisfy { $0 == 0 }) }
            }
            let sentenceDifference = zip(result.sentence, record.sentence).map { abs($0 - $1) }.max() ?? 0
            #expect(result.sentence.count == 24 && sentenceDifference <= 2e-5, "\(record.text)")
        }
        #expect(truncated >= 10)   // the fixture does reach past max_seq_length
    }

    @Test func wordListsMustMatchTheTexts() throws {
        let embedder = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        #expect(throws: SentenceEmbedderError.self) {
            try embedder.embedWithWordVectors(["one text"], words: [])
        }
    }
}
