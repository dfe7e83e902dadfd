import Foundation
import NLUTestSupport
import Testing
@testable import NLUEmbeddings

/// A loaded embedder holds none of its encoder checkpoint's pages in resident memory (the dense layers
/// are packed copies; a pass brings back the embedding rows of its tokens and the norms), and embeds as
/// sentence-transformers does all the same.
@Suite struct ResidentWeightsTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps"), "reads /proc/self/smaps (Linux)"))
    func loadedEmbedderHoldsNoCheckpointPagesAndEmbedsAsSentenceTransformers() throws {
        // A copy of its own: tests running beside this one map the fixture's file too.
        let copy = try EmbeddingFixtures.variant([:])
        defer { try? FileManager.default.removeItem(at: copy) }
        let weights = copy.appendingPathComponent("model.safetensors").path
        let embedder = try SentenceEmbedder(modelDirectory: copy)
        #expect(residentKilobytes(ofMappingsOf: weights) == 0)
        let vectors = try embedder.embed(EmbeddingFixtures.expected.texts)
        #expect(compare(vectors, EmbeddingFixtures.expected.full).minCosine >= 0.99999)
    }
}
