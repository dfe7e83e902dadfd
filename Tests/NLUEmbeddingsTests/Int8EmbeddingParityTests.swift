import Foundation
import NLUCore
import Testing
@testable import NLUEmbeddings

/// Sentence embeddings with the encoder's dense layers in INT8 (`Precision.int8`) against F32 on
/// the fixture model and texts: every embedding's cosine with F32's is at least `minimumCosine`
/// (measured on this fixture: 0.99988 and up; with the real all-MiniLM-L6-v2, see docs/int8.md), and
/// the ranking of one query against the others is unchanged.
@Suite struct Int8EmbeddingParityTests {
    static let minimumCosine: Float = 0.999

    @Test func embeddingsStayCloseToF32() throws {
        let f32 = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        let int8 = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model, precision: .int8)
        #expect(int8.encoder.precision == .int8)
        let texts = EmbeddingFixtures.expected.texts
        let reference = try f32.embed(texts), quantized = try int8.embed(texts)
        let cosines = zip(reference, quantized).map { SentenceEmbedder.similarity($0, $1) }
        print("int8 embeddings: cosine with F32 min \(cosines.min() ?? 0), mean \(cosines.reduce(0, +) / Float(max(cosines.count, 1)))")
        #expect(cosines.count == texts.count && cosines.allSatisfy { $0 >= Self.minimumCosine }, "\(cosines)")
        let order = { (vectors: [[Float]]) in
            vectors.indices.dropFirst().sorted { SentenceEmbedder.similarity(vectors[0], vectors[$0]) > SentenceEmbedder.similarity(vectors[0], vectors[$1]) }
        }
        #expect(order(reference) == order(quantized))
    }
}
