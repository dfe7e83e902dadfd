import Foundation
@testable import NLUEmbeddings
import NLUTestSupport

/// The committed fixtures of scripts/fixtures/embeddings.py: a tiny random sentence-transformers
/// model (Transformer, Pooling, Dense, Normalize) and what sentence-transformers computes with it.
enum EmbeddingFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/embeddings")
    static let model = directory.appendingPathComponent("minilm-tiny")

    struct Expected: Decodable {
        var texts: [String]
        var input_ids: [[Int32]]
        var full: [[Float]]
        var unnormalized: [[Float]]
        var pooling: [String: [[Float]]]
    }

    static let expected: Expected = {
        // The fixture is committed with the tests; failing to read it is a broken checkout.
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("expected.json").path),
              let value = try? JSONDecoder().decode(Expected.self, from: data) else {
            fatalError("Tests/Fixtures/embeddings/expected.json is missing or malformed: run scripts/fixtures/embeddings.py")
        }
        return value
    }()

    /// A copy of the fixture model (or of `source`) in a fresh temporary directory, with
    /// `modules.json` and files replaced as given (path → contents); `nil` contents delete the file.
    static func variant(of source: URL = model, _ files: [String: String?]) throws -> URL {
        let target = TestScratch.file("nlukit-emb")
        try FileManager.default.copyItem(at: source, to: target)
        for (path, contents) in files {
            let url = target.appendingPathComponent(path)
            if let contents {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            } else {
                try FileManager.default.removeItem(at: url)
            }
        }
        return target
    }

    /// `modules.json` listing the transformer and the given further modules (type, path).
    static func modulesJSON(_ modules: [(String, String)]) -> String {
        let all = [("Transformer", "")] + modules
        let entries = all.enumerated().map { index, module in
            #"{"idx": \#(index), "name": "\#(index)", "path": "\#(module.1)", "type": "sentence_transformers.models.\#(module.0)"}"#
        }
        return "[" + entries.joined(separator: ", ") + "]"
    }
}

/// The smallest cosine between corresponding rows and the largest element-wise difference.
func compare(_ actual: [[Float]], _ expected: [[Float]]) -> (minCosine: Float, maxDifference: Float) {
    precondition(actual.count == expected.count)
    var minCosine: Float = 1, maxDifference: Float = 0
    for (a, e) in zip(actual, expected) {
        precondition(a.count == e.count)
        minCosine = min(minCosine, SentenceEmbedder.similarity(a, e))
        for (x, y) in zip(a, e) { maxDifference = max(maxDifference, abs(x - y)) }
    }
    return (minCosine, maxDifference)
}
