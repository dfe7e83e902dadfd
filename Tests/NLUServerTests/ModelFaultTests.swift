import Foundation
import Testing
@testable import NLUServer

/// A model that computes a NaN or an infinity (finite weights that overflow) is the server's
/// problem, whatever the task: 500 `model_fault` with a message saying so, never a 4xx that blames
/// the client (QA answered 422), and never an anonymous `internal_error` (embeddings did).
@Suite("Model faults")
struct ModelFaultTests {
    func expectModelFault(_ response: RawHTTPResponse, task: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 500, sourceLocation: sourceLocation)
        #expect(response.object?["error"] as? String == "model_fault", sourceLocation: sourceLocation)
        let message = response.errorMessage
        #expect(message.hasPrefix("the \(task) model computed a non-finite number ("), "\(message)", sourceLocation: sourceLocation)
        #expect(message.hasSuffix("this is a fault of the served model, not of the request"), "\(message)", sourceLocation: sourceLocation)
    }

    @Test func nonFiniteQuestionAnsweringLogitsAre500() async throws {
        try await withTestServer(models: try DamagedModels.questionAnswering()) { server in
            let response = try await server.request("POST", "/question-answering",
                                                    json: #"{"question": "Who went?", "context": "Alice went to Paris."}"#)
            expectModelFault(response, task: "question-answering")
        }
    }

    @Test func nonFiniteEmbeddingsAre500OnBothRoutes() async throws {
        try await withTestServer(models: try DamagedModels.embeddings()) { server in
            expectModelFault(try await server.request("POST", "/embed", json: #"{"inputs": ["a text", "another"]}"#), task: "embeddings")
            let openAI = try await server.request("POST", "/v1/embeddings", json: #"{"input": "a text"}"#)
            expectModelFault(openAI, task: "embeddings")
            // The model's path stays in the server's log, not in the answer.
            #expect(!openAI.errorMessage.contains("nlukit-server-"))
        }
    }
}
