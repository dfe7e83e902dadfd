import Foundation
import NLUQuestionAnswering
import Testing
@testable import NLUServer

/// POST /question-answering, flat and in the Hugging Face Inference shape; answers must be the
/// library's own (QuestionAnswerer is itself checked against transformers in its suite).
@Suite("POST /question-answering")
struct QuestionAnsweringRouteTests {
    static let question = "Who went to Paris?"
    static let context = "Alice went to Paris on Monday with her friend Bob. They took the train from London."

    @Test func flatShapeAnswersLikeTheLibrary() async throws {
        try await withTestServer { server in
            let qa = try #require(try Fixtures.models().questionAnswering)
            let expected = try #require(try qa.answers(to: Self.question, in: Self.context).first)
            let response = try await server.request("POST", "/question-answering",
                                              json: try jsonString(["question": Self.question, "context": Self.context]))
            #expect(response.status == 200)
            let object = try #require(response.object)
            #expect(object["answer"] as? String == expected.text)
            #expect(object["score"] as? Double == expected.score)
            #expect(object["start"] as? Int == expected.start)
            #expect(object["end"] as? Int == expected.end)
        }
    }

    @Test func huggingFaceShapeWithTopKReturnsAListBestFirst() async throws {
        try await withTestServer { server in
            let qa = try #require(try Fixtures.models().questionAnswering)
            let expected = try qa.answers(to: Self.question, in: Self.context, options: AnswerOptions(topK: 3))
            let body: [String: Any] = ["inputs": ["question": Self.question, "context": Self.context],
                                       "parameters": ["top_k": 3], "options": ["wait_for_model": true]]
            let response = try await server.request("POST", "/question-answering", json: try jsonString(body))
            #expect(response.status == 200)
            let answers = try #require(response.json as? [[String: Any]])
            #expect(answers.count == expected.count)
            #expect(answers.map { $0["answer"] as? String } == expected.map(\.text))
            #expect(answers.map { $0["start"] as? Int } == expected.map(\.start))
        }
    }

    @Test func outOfRangeTopKIsA400NamingTheParameter() async throws {
        try await withTestServer { server in
            let response = try await server.request("POST", "/question-answering",
                                              json: #"{"inputs": {"question": "q?", "context": "c"}, "parameters": {"top_k": 0}}"#)
            #expect(response.status == 400)
            #expect(response.object?["message"] as? String == "field 'parameters.top_k': expected 1...100, got 0")
            // The flat shape's own field is named as the request gave it.
            let flat = try await server.request("POST", "/question-answering", json: #"{"question": "q?", "context": "c", "top_k": 0}"#)
            #expect(flat.status == 400)
            #expect(flat.object?["message"] as? String == "field 'top_k': expected 1...100, got 0")
        }
    }

    /// The pipeline's reading parameters reach the reader as `nlu qa ask`'s flags do.
    @Test func readingParametersAnswerLikeTheLibraryWithThoseOptions() async throws {
        try await withTestServer { server in
            let qa = try #require(try Fixtures.models().questionAnswering)
            let options = AnswerOptions(topK: 2, maxSequenceLength: 24, documentStride: 8, maxQuestionLength: 6, alignToWords: false)
            let expected = try qa.answers(to: Self.question, in: Self.context, options: options)
            let body: [String: Any] = ["inputs": ["question": Self.question, "context": Self.context],
                                       "parameters": ["top_k": 2, "max_seq_len": 24, "doc_stride": 8, "max_question_len": 6,
                                                      "align_to_words": false]]
            let response = try await server.request("POST", "/question-answering", json: try jsonString(body))
            #expect(response.status == 200)
            let answers = try #require(response.json as? [[String: Any]])
            #expect(answers.map { $0["answer"] as? String } == expected.map(\.text))
            #expect(answers.map { $0["start"] as? Int } == expected.map(\.start))
            #expect(answers.map { $0["score"] as? Double } == expected.map(\.score))
            // The defaults read the context in one window; 24 tokens with a stride of 8 need several: the answers differ.
            let whole = try qa.answers(to: Self.question, in: Self.context, options: AnswerOptions(topK: 2))
            #expect(whole.map(\.score) != expected.map(\.score))
        }
    }

    @Test func outOfRangeReadingParametersAreA400NamingTheParameter() async throws {
        try await withTestServer { server in
            for (name, value, range) in [("max_seq_len", 3, "4...100000"), ("doc_stride", -1, "0...100000"),
                                         ("max_question_len", 0, "1...100000")] {
                let response = try await server.request("POST", "/question-answering",
                                                        json: #"{"inputs": {"question": "q?", "context": "c"}, "parameters": {"\#(name)": \#(value)}}"#)
                #expect(response.status == 400)
                #expect(response.object?["message"] as? String == "field 'parameters.\(name)': expected \(range), got \(value)")
            }
        }
    }

    @Test func emptyQuestionIsA422WithTheLibrarysReason() async throws {
        try await withTestServer { server in
            let response = try await server.request("POST", "/question-answering", json: #"{"question": " ", "context": "Some text."}"#)
            #expect(response.status == 422)
            #expect(response.object?["error"] as? String == "unprocessable")
        }
    }

    @Test func missingInputsQuestionIsNamedWithItsPath() async throws {
        try await withTestServer { server in
            let response = try await server.request("POST", "/question-answering", json: #"{"inputs": {"context": "Some text."}}"#)
            #expect(response.status == 400)
            #expect(response.object?["message"] as? String == "missing field 'inputs.question'")
        }
    }

    @Test func routeWithoutItsModelSaysWhichOptionServesIt() async throws {
        let intentsOnly = ServedModels(intents: try Fixtures.models().intents)
        try await withTestServer(models: intentsOnly) { server in
            let response = try await server.request("POST", "/question-answering", json: #"{"question": "q?", "context": "c"}"#)
            #expect(response.status == 404)
            #expect(response.object?["error"] as? String == "model_not_loaded")
            #expect(response.object?["message"] as? String == "no question-answering model is served: start the server with --qa MODEL")
        }
    }
}
