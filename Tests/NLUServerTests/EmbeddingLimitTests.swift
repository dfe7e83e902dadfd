import Foundation
import Testing
@testable import NLUServer

/// The bounds of one embeddings request on both routes: `--max-embed-tokens` (the tokens the model
/// would read, summed, checked before it runs), `--max-embed-texts` (2048 texts, counted before any is decoded),
/// and errors that name the element at fault (`inputs[3]`), not just the array.
@Suite("Embedding limits")
struct EmbeddingLimitTests {
    static let texts = ["turn on the radio", "what is the weather like today", "a third, longer text than the others"]

    /// The tokens the fixture model reads for `texts`, counted here with the library.
    static func tokens() throws -> Int {
        let embedder = try #require(try Fixtures.models().embeddings)
        return texts.reduce(0) { $0 + embedder.tokenIDs($1).count }
    }

    @Test func tokensOverTheBudgetAre422NamingTheFieldTheCountAndTheLimit() async throws {
        let tokens = try Self.tokens()
        let maxLength = try #require(try Fixtures.models().embeddings).maxSequenceLength
        try await withTestServer(configure: { $0.maxEmbeddingTokens = tokens - 1 }) { server in
            let tei = try await server.request("POST", "/embed", json: try jsonString(["inputs": Self.texts]))
            #expect(tei.status == 422)
            #expect(tei.object?["error"] as? String == "unprocessable")
            #expect(tei.object?["message"] as? String
                    == "field 'inputs': \(tokens) tokens (each text as the model reads it, at most \(maxLength)) is over this server's limit of \(tokens - 1) per request (--max-embed-tokens); send fewer or shorter texts")
            let openAI = try await server.request("POST", "/v1/embeddings", json: try jsonString(["input": Self.texts]))
            #expect(openAI.status == 422)
            #expect(openAI.errorMessage.hasPrefix("field 'input': \(tokens) tokens"))
        }
        try await withTestServer(configure: { $0.maxEmbeddingTokens = tokens }) { server in
            let atTheLimit = try await server.request("POST", "/v1/embeddings", json: try jsonString(["input": Self.texts]))
            #expect(atTheLimit.status == 200)
            #expect((atTheLimit.object?["usage"] as? [String: Any])?["total_tokens"] as? Int == tokens)
        }
    }

    /// With weights that overflow, any model call answers 500: a 422 proves the model did not run.
    @Test func theTokenBudgetIsCheckedBeforeTheModelRuns() async throws {
        try await withTestServer(models: try DamagedModels.embeddings(), configure: { $0.maxEmbeddingTokens = 3 }) { server in
            let response = try await server.request("POST", "/embed", json: try jsonString(["inputs": Self.texts]))
            #expect(response.status == 422)
            #expect(response.errorMessage.contains("--max-embed-tokens"))
        }
    }

    /// 2049 texts of which the last is no string: the count is refused first (422), without reading
    /// the elements (reading them first answered 400 about the element).
    @Test func tooManyTextsAreCountedBeforeTheElementsAreRead() async throws {
        let body = #"{"input": ["# + Array(repeating: #""a""#, count: 2048).joined(separator: ",") + ", 7]}"
        try await withTestServer { server in
            let response = try await server.request("POST", "/v1/embeddings", json: body)
            #expect(response.status == 422)
            #expect(response.object?["message"] as? String == "field 'input': 2049 texts is over this server's limit of 2048 per request (--max-embed-texts)")
        }
    }

    /// A lowered `--max-embed-texts` is the limit on both routes, whether the decoder knows the
    /// array's length or not; at the limit the request is answered.
    @Test func aLoweredTextCountLimitIsAppliedAndNamed() async throws {
        try await withTestServer(configure: { $0.maxEmbeddingTexts = 2 }) { server in
            let tei = try await server.request("POST", "/embed", json: try jsonString(["inputs": Self.texts]))
            #expect(tei.status == 422)
            #expect(tei.object?["error"] as? String == "unprocessable")
            #expect(tei.errorMessage == "field 'inputs': 3 texts is over this server's limit of 2 per request (--max-embed-texts)")
            let openAI = try await server.request("POST", "/v1/embeddings", json: try jsonString(["input": Self.texts]))
            #expect(openAI.status == 422)
            #expect(openAI.errorMessage == "field 'input': 3 texts is over this server's limit of 2 per request (--max-embed-texts)")
            let atTheLimit = try await server.request("POST", "/embed", json: try jsonString(["inputs": Array(Self.texts.prefix(2))]))
            #expect(atTheLimit.status == 200)
        }
    }

    @Test func aTextTooLongOrOfTheWrongTypeIsNamedByItsIndex() async throws {
        try await withTestServer(configure: { $0.maxTextLength = 10 }) { server in
            let long = try await server.request("POST", "/embed", json: #"{"inputs": ["short", "much too long here"]}"#)
            #expect(long.status == 422)
            #expect(long.object?["message"] as? String == "field 'inputs[1]': 18 characters is over this server's limit of 10 (--max-text-length)")
            let openAI = try await server.request("POST", "/v1/embeddings", json: #"{"input": ["a", "b", "c", "much too long here"]}"#)
            #expect(openAI.object?["message"] as? String == "field 'input[3]': 18 characters is over this server's limit of 10 (--max-text-length)")
            // One string, not an array: the field itself.
            let one = try await server.request("POST", "/embed", json: #"{"inputs": "much too long here"}"#)
            #expect(one.errorMessage == "field 'inputs': 18 characters is over this server's limit of 10 (--max-text-length)")
            let number = try await server.request("POST", "/v1/embeddings", json: #"{"input": ["a", 3]}"#)
            #expect(number.status == 400)
            #expect(number.object?["message"] as? String == "field 'input[1]': expected a string")
        }
    }
}
