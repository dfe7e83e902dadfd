import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /model/parse` (Rasa): the intents model on the text.
    func registerParseRoute(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.parse.path)) { request, _ in
            guard let classifier = models.intents else { throw APIError.modelNotLoaded("intents", option: "--intents") }
            let body = try await decode(RasaParse.Request.self, request)
            try checkLength(body.text, field: "text")
            let prediction = try await pool.run(task: "intents") {
                classifier.predict(body.text, top: RasaParse.rankingLength)
            }
            return try JSONResponse.make(RasaParse.response(prediction))
        }
    }
}
