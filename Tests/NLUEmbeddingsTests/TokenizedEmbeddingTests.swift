import Foundation
import Testing
@testable import NLUEmbeddings

/// ``SentenceEmbedder/embed(tokenIDs:options:)``: texts tokenized once (to count their tokens) are
/// embedded from those tokens, bit for bit as the texts themselves are, and a sequence the encoder
/// cannot read is refused by name instead of reaching it.
@Suite struct TokenizedEmbeddingTests {
    let texts = EmbeddingFixtures.expected.texts

    @Test(arguments: [1, 3, 32])
    func tokenIDsEmbedBitForBitAsTheirTexts(batchSize: Int) throws {
        let embedder = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        let options = EmbeddingOptions(batchSize: batchSize, normalize: false)
        let fromTokens = try embedder.embed(tokenIDs: texts.map(embedder.tokenIDs), options: options)
        #expect(fromTokens == (try embedder.embed(texts, options: options)))
        // The ids are sentence-transformers' own (the parity fixture), so its vectors follow.
        #expect(try embedder.embed(tokenIDs: EmbeddingFixtures.expected.input_ids) == (try embedder.embed(texts)))
    }

    @Test func sequencesTheEncoderCannotReadAreRefusedByIndex() throws {
        let embedder = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        let good = embedder.tokenIDs("a text")
        #expect(throws: SentenceEmbedderError.invalidOption(name: "token ids [1]", value: "of 0 tokens",
                                                            expected: "1...16 tokens, as tokenIDs(_:) makes them")) {
            try embedder.embed(tokenIDs: [good, []])
        }
        let tooLong = [Int32](repeating: good[1], count: embedder.maxSequenceLength + 1)
        #expect(throws: SentenceEmbedderError.invalidOption(name: "token ids [0]", value: "of 17 tokens",
                                                            expected: "1...16 tokens, as tokenIDs(_:) makes them")) {
            try embedder.embed(tokenIDs: [tooLong])
        }
        // An id outside the vocabulary is the encoder's error, not a read past its table.
        #expect(throws: (any Error).self) { try embedder.embed(tokenIDs: [[good[0], Int32.max]]) }
        #expect(try embedder.embed(tokenIDs: []).isEmpty)
    }
}
