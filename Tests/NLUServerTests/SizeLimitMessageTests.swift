import Foundation
import Testing
@testable import NLUServer

/// The answer to a body over `--max-body` names the body's size besides the limit, as every other size
/// limit's answer does (texts, tokens, windows, characters: `EmbeddingLimitTests` and the others) and as
/// Text Embeddings Inference does (`batch size 2048 > maximum allowed batch size 32`): a client told
/// only the limit cannot tell by how much it passed it.
@Suite("Size limit messages")
struct SizeLimitMessageTests {
    /// 2,048 texts of 16 tokens to `/embed`, over a body limit: 413 naming the body's bytes and the limit.
    @Test func embedBodyOverTheLimitNamesItsSizeAndTheLimit() async throws {
        let text = "please turn on the radio and the heater and the wipers right now thanks a lot today"
        let embedder = try #require(try Fixtures.models().embeddings)
        #expect(embedder.tokenIDs(text).count == 16)   // the tiny model's max_seq_length
        let body = try jsonString(["inputs": Array(repeating: text, count: 2048)])
        let size = body.utf8.count
        try await withTestServer(configure: { $0.maxBodyBytes = 100_000 }) { server in
            let response = try await server.request("POST", "/embed", json: body)
            #expect(response.status == 413)
            #expect(response.object?["error"] as? String == "body_too_large")
            #expect(response.errorMessage == "the request body of \(size) bytes is over this server's limit of 100000 bytes (--max-body)")
        }
    }
}
