import Foundation
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

/// The kilobytes of the file at `path` this process holds in resident memory through its memory maps (the
/// `Rss` of every mapping of the file in `/proc/self/smaps`); nil where there is no such file (not Linux).
func residentKilobytes(ofMappingsOf path: String) -> Int? {
    guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return nil }
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var total = 0
    var inTarget = false
    for line in smaps.split(separator: "\n") {
        let fields = line.split(separator: " ")
        // A mapping's first line is "start-end perms offset device inode [path]"; the others are "Key: value kB".
        if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
            inTarget = fields.count >= 6 && fields[5...].joined(separator: " ") == target
        } else if inTarget, fields.count >= 2, fields[0] == "Rss:", let kilobytes = Int(fields[1]) {
            total += kilobytes
        }
    }
    return total
}
