import Foundation
import NLUFuzzSupport
import Testing
@testable import NLUServer

/// Mutated request bodies for every route that reads one (wrong values in well-formed JSON, broken
/// syntax, invalid UTF-8, huge numbers) get 200 or a 4xx JSON error `{"error", "message"}` whose
/// message names the field or the body without raw Foundation text — never a 500, a dropped
/// connection or a server that stops answering.
@Suite("Request body fuzzing")
struct RequestBodyFuzzTests {
    static let bodies: [(path: String, body: String)] = [
        ("/model/parse", #"{"text": "turn on the radio"}"#),
        ("/question-answering", #"{"inputs": {"question": "Who jumped?", "context": "The quick brown fox jumps over the lethargic dog."}, "parameters": {"top_k": 2}}"#),
        ("/embed", #"{"inputs": ["a first text", "a second one"], "normalize": true}"#),
        ("/v1/embeddings", #"{"input": ["a first text"], "model": "m", "encoding_format": "float"}"#),
    ]

    @Test func mutatedBodiesGetAnAnswerOrAClearClientError() async throws {
        try await withTestServer { server in
            for (path, body) in Self.bodies {
                var mutator = Mutator(seed: "server" + path)
                let original = Array(body.utf8)
                for number in 0..<FuzzCases.count(default: 60) {
                    let mutated = mutator.mutateJSON(original)
                    let response = try await server.request("POST", path, json: String(decoding: mutated, as: UTF8.self))
                    let context = "\(path) case \(number): \(String(decoding: mutated.prefix(200), as: UTF8.self))"
                    if response.status == 200 { continue }
                    #expect((400..<500).contains(response.status), "\(context): status \(response.status)")
                    let message = response.object?["message"] as? String ?? ""
                    #expect(!message.isEmpty, "\(context): no message")
                    if let raw = FuzzCases.rawErrorText.first(where: { message.contains($0) }) {
                        Issue.record("\(context): raw '\(raw)' in \(message)")
                    }
                }
            }
            // Still answering after all that.
            #expect(try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#).status == 200)
        }
    }
}
