import Foundation
import NLUQuestionAnswering
import Testing
@testable import NLUServer

/// `--max-qa-windows`: a context needing more windows than the limit is refused with 422 naming the
/// field (as the request's shape names it), the count and the limit, before the model runs; a model
/// that computes non-finite logits is the server's fault, 500.
@Suite("Question answering limits")
struct QuestionAnsweringLimitTests {
    static let question = "Who went to Paris?"
    static let context = Array(repeating: "Alice went to Paris on Monday with her friend Bob. They took the train from London.",
                               count: 40).joined(separator: " ")

    /// The windows the fixture's tokenizer cuts the context into at the pipeline's defaults,
    /// counted here without the answerer.
    static func windows() throws -> Int {
        let qa = try #require(try Fixtures.models().questionAnswering)
        let length = qa.defaultMaxSequenceLength
        return try qa.tokenizer.encodePair(question, context, maxLength: length, stride: min(length / 2, 128)).count
    }

    @Test func aContextOverTheWindowLimitIs422NamingTheFieldTheCountAndTheLimit() async throws {
        let count = try Self.windows()
        #expect(count >= 3)
        let length = try #require(try Fixtures.models().questionAnswering).defaultMaxSequenceLength
        try await withTestServer(configure: { $0.maxQuestionAnsweringWindows = count - 1 }) { server in
            let flat = try await server.request("POST", "/question-answering",
                                                json: try jsonString(["question": Self.question, "context": Self.context]))
            #expect(flat.status == 422)
            #expect(flat.object?["error"] as? String == "unprocessable")
            #expect(flat.object?["message"] as? String
                    == "field 'context': \(count) windows of \(length) tokens is over this server's limit of \(count - 1) per request (--max-qa-windows); send a shorter context")
            let huggingFace = try await server.request("POST", "/question-answering", json: try jsonString(
                ["inputs": ["question": Self.question, "context": Self.context], "parameters": ["top_k": 2]]))
            #expect(huggingFace.status == 422)
            #expect(huggingFace.errorMessage.hasPrefix("field 'inputs.context': \(count) windows of"))
        }
        // At the limit it is answered.
        try await withTestServer(configure: { $0.maxQuestionAnsweringWindows = count }) { server in
            let response = try await server.request("POST", "/question-answering",
                                                    json: try jsonString(["question": Self.question, "context": Self.context]))
            #expect(response.status == 200)
        }
    }

    /// With weights that overflow, any model call answers 500: a 422 proves the model did not run.
    @Test func theWindowLimitIsCheckedBeforeTheModelRuns() async throws {
        try await withTestServer(models: try DamagedModels.questionAnswering(), configure: { $0.maxQuestionAnsweringWindows = 1 }) { server in
            let response = try await server.request("POST", "/question-answering",
                                                    json: try jsonString(["question": Self.question, "context": Self.context]))
            #expect(response.status == 422)
            #expect(response.errorMessage.contains("--max-qa-windows"))
        }
    }
}
