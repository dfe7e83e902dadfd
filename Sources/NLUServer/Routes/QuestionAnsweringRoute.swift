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
            try checkLength(body.question, field: "question")
            try checkLength(body.context, field: "context")
            let options = try body.options()
            let answers: [Answer]
            do {
                answers = try await pool.run(task: "question-answering") {
                    try qa.answers(to: body.question, in: body.context, options: options)
                }
            } catch let error as QuestionAnsweringError {
                throw APIError.unprocessable("\(error)")
            }
            let shaped = answers.map(QuestionAnsweringAPI.answer)
            if options.topK == 1, let best = shaped.first { return try JSONResponse.make(best) }
            return try JSONResponse.make(shaped)
        }
    }
}
