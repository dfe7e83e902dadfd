import Foundation
import Testing
@testable import NLUServer

/// The embeddings routes tokenize each text once: the tokens counted against `--max-embed-tokens`
/// (and reported as OpenAI's `usage`) are the ones embedded, not a second tokenization of the same
/// text (which doubled the tokenizer's share of every request).
@Suite("Embedding tokenization")
struct EmbeddingTokenizationTests {
    static let texts = ["turn on the radio", "what is the weather like today", "a third, longer text than the others"]

    @Test(arguments: [("/embed", "inputs"), ("/v1/embeddings", "input")])
    func eachTextIsTokenizedOncePerRequest(path: String, field: String) async throws {
        let (models, probe) = try TokenizerProbe.servedModels()
        let expected = try #require(try Fixtures.models().embeddings).embed(Self.texts)
        try await withTestServer(models: models) { server in
            let response = try await server.request("POST", path, json: try jsonString([field: Self.texts]))
            #expect(response.status == 200)
            #expect(probe.texts == Self.texts)
            // The vectors are those of the texts (the one tokenization is the one embedded).
            let vectors: [[Double]]
            if path == "/embed" {
                vectors = try #require(response.json as? [[Double]])
            } else {
                vectors = try #require((response.object?["data"] as? [[String: Any]])?.compactMap { $0["embedding"] as? [Double] })
            }
            // JSON carries each Float's shortest decimal form, which reads back as the same Float.
            #expect(vectors.map { $0.map(Float.init) } == expected)
        }
    }
}
