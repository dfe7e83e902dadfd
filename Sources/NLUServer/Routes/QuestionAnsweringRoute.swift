import Hummingbird
import NLUQuestionAnswering

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /question-answering` (flat or Hugging Face Inference shape).
    func registerQuestionAnsweringRoute(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.questionAnswering.path)) { request, _ in
            guard let qa = models.questionAnswering else {
                throw APIError.modelNotLoaded("question-answering", option: "--qa")
            }
            let body = try await decode(QuestionAnsweringAPI.Request.self, request)
            try checkLength(body.question, field: body.questionField)
            try checkLength(body.context, field: body.contextField)
            var options = try body.options()
            // The library windows the context first and refuses more windows before the model runs.
            options.maxWindows = configuration.maxQuestionAnsweringWindows
            let answers: [Answer]
            do {
                answers = try await pool.run(task: "question-answering") { [options] in
                    try qa.answers(to: body.question, in: body.context, options: options)
                }
            } catch let error as QuestionAnsweringError {
                throw apiError(error, contextField: body.contextField)
            }
            let shaped = answers.map(QuestionAnsweringAPI.answer)
            if options.topK == 1, let best = shaped.first { return try JSONResponse.make(best) }
            return try JSONResponse.make(shaped)
        }
    }

    /// The answer to a library error: the model's fault is a 500, everything else is about the
    /// request (an empty question, a context over the window limit) and a 422.
    private func apiError(_ error: QuestionAnsweringError, contextField: String) -> APIError {
        switch error {
        case let .nonFiniteLogits(detail):
            return .modelFault(task: "question-answering", detail: detail)
        case let .tooManyWindows(count, limit, windowLength):
            return .unprocessable("field '\(contextField)': \(count) windows of \(windowLength) tokens is over this server's limit of "
                + "\(limit) per request (--max-qa-windows); send a shorter context")
        default:
            return .unprocessable("\(error)")
        }
    }
}
