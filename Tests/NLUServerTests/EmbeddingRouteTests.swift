import Foundation
import Testing
@testable import NLUServer

/// POST /embed (TEI) and /v1/embeddings (OpenAI), checked against sentence-transformers' own
/// embeddings of the same texts (Tests/Fixtures/embeddings/expected.json, scripts/fixtures).
@Suite("Embeddings")
struct EmbeddingRouteTests {
    struct Expected: Decodable {
        var texts: [String]
        var full: [[Float]]
        var unnormalized: [[Float]]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Fixtures.directory.appendingPathComponent("embeddings/expected.json")))
    }

    /// Largest absolute difference; 1e-4 is the embedding suite's own tolerance for Float32 vs PyTorch.
    static func maxDifference(_ a: [[Double]], _ b: [[Float]]) -> Double {
        guard a.count == b.count else { return .infinity }
        var worst = 0.0
        for (x, y) in zip(a, b) {
            guard x.count == y.count else { return .infinity }
            for (u, v) in zip(x, y) { worst = max(worst, abs(u - Double(v))) }
        }
        return worst
    }

    @Test func teiEmbedMatchesSentenceTransformersNormalizedAndNot() async throws {
        let expected = try Self.expected()
        let texts = Array(expected.texts.prefix(4))
        try await withTestServer { server in
            let normalized = try await server.request("POST", "/embed", json: try jsonString(["inputs": texts]))
            #expect(normalized.status == 200)
            let vectors = try #require(normalized.json as? [[Double]])
            #expect(Self.maxDifference(vectors, Array(expected.full.prefix(4))) < 1e-4)
            let raw = try await server.request("POST", "/embed", json: try jsonString(["inputs": texts, "normalize": false]))
            #expect(Self.maxDifference(try #require(raw.json as? [[Double]]), Array(expected.unnormalized.prefix(4))) < 1e-4)
        }
    }

    @Test func teiAcceptsOneStringAndTheHuggingFaceClientsParameters() async throws {
        let expected = try Self.expected()
        try await withTestServer { server in
            let body: [String: Any] = ["inputs": expected.texts[0], "parameters": ["truncate": true], "truncate": true]
            let response = try await server.request("POST", "/embed", json: try jsonString(body))
            #expect(response.status == 200)
            #expect(Self.maxDifference(try #require(response.json as? [[Double]]), [expected.full[0]]) < 1e-4)
        }
    }

    @Test func openAIShapeWithUsageAndBase64() async throws {
        let expected = try Self.expected()
        let texts = Array(expected.texts.prefix(3))
        try await withTestServer { server in
            let response = try await server.request("POST", "/v1/embeddings", json: try jsonString(["input": texts, "model": "text-embedding-3-small"]))
            #expect(response.status == 200)
            let object = try #require(response.object)
            #expect(object["object"] as? String == "list")
            #expect(object["model"] as? String == "text-embedding-3-small")
            let data = try #require(object["data"] as? [[String: Any]])
            #expect(data.map { $0["object"] as? String } == ["embedding", "embedding", "embedding"])
            #expect(data.map { $0["index"] as? Int } == [0, 1, 2])
            #expect(Self.maxDifference(data.compactMap { $0["embedding"] as? [Double] }, Array(expected.full.prefix(3))) < 1e-4)
            let usage = try #require(object["usage"] as? [String: Any])
            let embedder = try #require(try Fixtures.models().embeddings)
            let tokens = texts.reduce(0) { $0 + embedder.tokenIDs($1).count }
            #expect(usage["prompt_tokens"] as? Int == tokens)
            #expect(usage["total_tokens"] as? Int == tokens)

            let base64 = try await server.request("POST", "/v1/embeddings",
                                                  json: try jsonString(["input": texts[0], "encoding_format": "base64"]))
            let item = try #require((base64.object?["data"] as? [[String: Any]])?.first)
            let encoded = try #require(item["embedding"] as? String)
            let bytes = try #require(Data(base64Encoded: encoded))
            let floats = stride(from: 0, to: bytes.count, by: 4).map { offset in
                Float(bitPattern: bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) })
            }
            #expect(Self.maxDifference([floats.map(Double.init)], [expected.full[0]]) < 1e-4)
            #expect(base64.object?["model"] as? String == "minilm-tiny")
        }
    }

    @Test func wrongInputTypesAndCountsAreNamed() async throws {
        try await withTestServer { server in
            let number = try await server.request("POST", "/embed", json: #"{"inputs": 3}"#)
            #expect(number.status == 400)
            #expect(number.object?["message"] as? String == "field 'inputs': expected a string or an array of strings")
            let tokens = try await server.request("POST", "/v1/embeddings", json: #"{"input": [[1, 2, 3]]}"#)
            #expect(tokens.object?["message"] as? String == "field 'input[0]': expected a string")
            let empty = try await server.request("POST", "/v1/embeddings", json: #"{"input": []}"#)
            #expect(empty.status == 400)
            #expect(empty.object?["message"] as? String == "field 'input': expected at least one text")
            let format = try await server.request("POST", "/v1/embeddings", json: #"{"input": "a", "encoding_format": "int8"}"#)
            #expect(format.object?["message"] as? String == "field 'encoding_format': expected \"float\" or \"base64\", got \"int8\"")
            let many = try await server.request("POST", "/embed", json: try jsonString(["inputs": Array(repeating: "a", count: 2049)]))
            #expect(many.status == 422)
        }
    }

    /// An empty text is a 400 naming it, as Text Embeddings Inference (`` `inputs` cannot be empty``)
    /// and OpenAI ("cannot be an empty string") answer; so is an empty array. An empty string used
    /// to be embedded (200, the model's vector for `[CLS] [SEP]`). A text of spaces is a text, as
    /// in both peers: stripped as sentence-transformers strips it, then embedded.
    @Test(arguments: [("/embed", "inputs"), ("/v1/embeddings", "input")])
    func emptyTextsAreRefusedByName(path: String, field: String) async throws {
        try await withTestServer { server in
            let cases: [(Any, String)] = [
                ("", "field '\(field)': expected a non-empty string"),
                ([String](), "field '\(field)': expected at least one text"),
                (["a text", ""], "field '\(field)[1]': expected a non-empty string"),
            ]
            for (input, message) in cases {
                let response = try await server.request("POST", path, json: try jsonString([field: input]))
                #expect(response.status == 400, "\(input)")
                #expect(response.object?["error"] as? String == "bad_request")
                #expect(response.errorMessage == message)
            }
            let spaces = try await server.request("POST", path, json: try jsonString([field: "  "]))
            #expect(spaces.status == 200)
        }
    }
}
