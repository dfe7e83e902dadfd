import NLUQuestionAnswering

/// `POST /question-answering`, in either of two request shapes:
///
/// - flat: `{"question": "...", "context": "...", "top_k": 1}`
/// - Hugging Face Inference: `{"inputs": {"question": "...", "context": "..."}, "parameters": {"top_k": 3,
///   "max_answer_len": 15, "handle_impossible_answer": false, "max_seq_len": 384, "doc_stride": 128,
///   "max_question_len": 64, "align_to_words": true}}` — the question-answering pipeline's parameters, the same
///   reading options as `nlu qa ask`'s flags.
///
/// The answer is `{"answer", "score", "start", "end"}` (offsets in Unicode scalars, as Python counts);
/// with `top_k` above 1, a list of them, best first — as the Hugging Face pipeline returns.
enum QuestionAnsweringAPI {
    struct Parameters: Decodable, Sendable {
        var topK: Int?
        var maxAnswerLength: Int?
        var handleImpossibleAnswer: Bool?
        var maxSequenceLength: Int?
        var documentStride: Int?
        var maxQuestionLength: Int?
        var alignToWords: Bool?

        enum CodingKeys: String, CodingKey {
            case topK = "top_k"
            case maxAnswerLength = "max_answer_len"
            case handleImpossibleAnswer = "handle_impossible_answer"
            case maxSequenceLength = "max_seq_len"
            case documentStride = "doc_stride"
            case maxQuestionLength = "max_question_len"
            case alignToWords = "align_to_words"
        }
    }

    struct Request: Decodable, Sendable {
        var question: String
        var context: String
        var parameters: Parameters

        private struct Inputs: Decodable { var question: String; var context: String }
        private enum CodingKeys: String, CodingKey {
            case inputs, parameters, question, context
            case topK = "top_k"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.inputs) {
                let inputs = try container.decode(Inputs.self, forKey: .inputs)
                question = inputs.question
                context = inputs.context
                questionField = "inputs.question"
                contextField = "inputs.context"
            } else {
                question = try container.decode(String.self, forKey: .question)
                context = try container.decode(String.self, forKey: .context)
            }
            parameters = try container.decodeIfPresent(Parameters.self, forKey: .parameters) ?? Parameters()
            if let topK = try container.decodeIfPresent(Int.self, forKey: .topK) {
                parameters.topK = topK
                topKField = "top_k"
            }
        }

        /// Where the request gave `top_k` (the flat shape's own field, or `parameters.top_k`), for errors.
        private var topKField = "parameters.top_k"
        /// The question's and the context's fields as the request's shape names them, for errors.
        private(set) var questionField = "question"
        private(set) var contextField = "context"

        /// The reading options, range-checked.
        /// - Throws: ``APIError`` 400 naming the parameter.
        func options() throws -> AnswerOptions {
            var options = AnswerOptions()
            if let topK = try Self.bounded(parameters.topK, 1...100, field: topKField) { options.topK = topK }
            if let length = try Self.bounded(parameters.maxAnswerLength, 1...512, field: "parameters.max_answer_len") {
                options.maxAnswerLength = length
            }
            if let impossible = parameters.handleImpossibleAnswer { options.handleImpossibleAnswer = impossible }
            // The model's own bounds (positions, stride within a window) are the library's to check: its
            // message comes back as a 422. These ranges only keep absurd numbers from reaching it.
            if let length = try Self.bounded(parameters.maxSequenceLength, 4...100_000, field: "parameters.max_seq_len") {
                options.maxSequenceLength = length
            }
            if let stride = try Self.bounded(parameters.documentStride, 0...100_000, field: "parameters.doc_stride") {
                options.documentStride = stride
            }
            if let length = try Self.bounded(parameters.maxQuestionLength, 1...100_000, field: "parameters.max_question_len") {
                options.maxQuestionLength = length
            }
            if let align = parameters.alignToWords { options.alignToWords = align }
            return options
        }

        /// `value` when the request gave it within `range`; nil when it did not give it.
        /// - Throws: ``APIError`` 400 naming `field` and the range.
        private static func bounded(_ value: Int?, _ range: ClosedRange<Int>, field: String) throws -> Int? {
            guard let value else { return nil }
            guard range.contains(value) else {
                throw APIError.badRequest("field '\(field)': expected \(range.lowerBound)...\(range.upperBound), got \(value)")
            }
            return value
        }
    }

    struct Answer: Encodable, Sendable, Equatable {
        var answer: String
        var score: Double
        var start: Int
        var end: Int
    }

    static func answer(_ answer: NLUQuestionAnswering.Answer) -> Answer {
        Answer(answer: answer.text, score: answer.score, start: answer.start, end: answer.end)
    }
}
