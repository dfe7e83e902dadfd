import Hummingbird
import NLUBuiltins
import NLUCore
import NLUInputOutput

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /model/parse` (Rasa): the intents model on the text.
    func registerParseRoute(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.parse.path)) { request, context in
            guard let classifier = models.intents else { throw APIError.modelNotLoaded("intents", option: "--intents") }
            let body = try await decode(RasaParse.Request.self, request)
            try checkLength(body.text, field: "text")
            let reference = try body.referenceTime.map { text in
                do { return try ReferenceTime(iso8601: text) } catch let error as ReferenceTimeError {
                    throw APIError.badRequest("field 'reference_time': \(ReferenceTimeError(text: EchoedValue.prefix(error.text)))")
                }
            }
            let language = try body.language.map { code in
                do { return try BuiltinLanguage(code: code) } catch let error as BuiltinLanguageError {
                    // The message echoes the code: a long one is cut, as every echoed field is.
                    let echoed = EchoedValue.prefix(code)
                    let shown: BuiltinLanguageError = error == .malformed(code) ? .malformed(echoed) : .unsupported(echoed)
                    throw APIError.badRequest("field 'language': \(shown)")
                }
            }
            let model = language.map(classifier.readingBuiltins(in:)) ?? classifier
            // A model whose encoder can be shared computes its sentence features in a batch with concurrent requests'.
            let prediction = if let batcher = batchers.parse {
                try await batcher.submit(ParseBatchJob(model: model, text: body.text, reference: reference), size: 1)
            } else {
                try await pool.run(task: "intents") { model.predict(body.text, top: RasaParse.rankingLength, reference: reference) }
            }
            // The model's owner reads the log; the client reads the response's `warnings`.
            for warning in prediction.warnings { context.logger.warning("intents: \(warning)") }
            return try JSONResponse.make(RasaParse.response(prediction))
        }
    }
}
