import Foundation
import NLUCore
import Testing
@testable import NLUEmbeddings

/// Sentence embeddings with the encoder's dense layers in INT8 (`Precision.int8`) against F32 on
/// the fixture model and texts: every embedding's cosine with F32's is at least `minimumCosine`
/// (measured on this fixture: 0.99988 and up with 8-bit weights, 0.99925 with the 7-bit weights of
/// AVX2 CPUs; with attention's products in INT8 too, 0.99990 and 0.99959; with the 7-bit rows
/// that go with those weights, 0.99925 (the MPNet fixture 0.99894, hence 0.998 for 7-bit rows); with the real
/// all-MiniLM-L6-v2, see docs/int8.md), and the ranking of one query
/// against the others is F32's except where two texts' F32 similarities are within `tieMargin`.
@Suite struct Int8EmbeddingParityTests {
    /// At the level in effect: tests hold the CPU's best one (`CPULevel.with`) while they load and compare.
    static var minimumCosine: Float { QuantizedMatrix.preferredActivationLimit == 63 ? 0.998 : 0.999 }
    /// F32 similarity gap under which two texts may trade places (7-bit weights swapped one pair
    /// 0.0016 apart on this fixture).
    static let tieMargin: Float = 0.005

    @Test func embeddingsStayCloseToF32() throws {
        try CPULevel.with(.supported) { try checkEmbeddings() }
    }

    func checkEmbeddings() throws {
        let f32 = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        let int8 = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model, precision: .int8)
        #expect(int8.encoder.precision == .int8)
        let texts = EmbeddingFixtures.expected.texts
        let reference = try f32.embed(texts), quantized = try int8.embed(texts)
        let cosines = zip(reference, quantized).map { SentenceEmbedder.similarity($0, $1) }
        print("int8 embeddings: cosine with F32 min \(cosines.min() ?? 0), mean \(cosines.reduce(0, +) / Float(max(cosines.count, 1)))")
        #expect(cosines.count == texts.count && cosines.allSatisfy { $0 >= Self.minimumCosine }, "\(cosines)")
        let similarities = { (vectors: [[Float]]) in vectors.map { SentenceEmbedder.similarity(vectors[0], $0) } }
        let f32Scores = similarities(reference), int8Scores = similarities(quantized)
        // Every pair of texts the two rankings order differently must be a near tie in F32.
        var swapped = 0
        for i in 1..<texts.count {
            for j in (i + 1)..<texts.count where (f32Scores[i] > f32Scores[j]) != (int8Scores[i] > int8Scores[j]) {
                swapped += 1
                let gap = abs(f32Scores[i] - f32Scores[j])
                print("int8 embeddings: texts \(i) and \(j) trade places, F32 similarity gap \(gap)")
                #expect(gap < Self.tieMargin, "texts \(i) and \(j): F32 gap \(gap) but INT8 orders them the other way")
            }
        }
        #expect(swapped <= 2, "\(swapped) pairs reordered")
    }
}
