import Hummingbird
import NLUEmbeddings

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /embed` (TEI) and `POST /v1/embeddings` (OpenAI): the sentence embedder on the texts.
    func registerEmbeddingRoutes(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.embed.path)) { request, _ in
            let embedder = try servedEmbedder()
            let body = try await decode(EmbeddingsAPI.TEIRequest.self, request)
            let texts = try body.inputs.validated(field: "inputs")
            for text in texts { try checkLength(text, field: "inputs") }
            let vectors = try await embed(texts, with: embedder, normalize: body.normalize ?? true)
            return try JSONResponse.make(vectors)
        }
        router.post(.init(RouteTable.openAIEmbeddings.path)) { request, _ in
            let embedder = try servedEmbedder()
            let body = try await decode(EmbeddingsAPI.OpenAIRequest.self, request)
            let texts = try body.input.validated(field: "input")
            for text in texts { try checkLength(text, field: "input") }
            _ = try EmbeddingsAPI.embedding([], format: body.encodingFormat)   // a bad format fails before the model runs
            let (vectors, tokens) = try await pool.run(task: "embeddings") {
                (try embedder.embed(texts, options: EmbeddingOptions(normalize: true)),
                 texts.reduce(0) { $0 + embedder.tokenIDs($1).count })
            }
            let data = try vectors.enumerated().map {
                EmbeddingsAPI.OpenAIResponse.Item(index: $0.offset, embedding: try EmbeddingsAPI.embedding($0.element, format: body.encodingFormat))
            }
            return try JSONResponse.make(EmbeddingsAPI.OpenAIResponse(
                data: data, model: body.model ?? models.embeddingsName, usage: .init(promptTokens: tokens, totalTokens: tokens)))
        }
    }

    private func servedEmbedder() throws -> SentenceEmbedder {
        guard let embedder = models.embeddings else { throw APIError.modelNotLoaded("embeddings", option: "--embed") }
        return embedder
    }

    private func embed(_ texts: [String], with embedder: SentenceEmbedder, normalize: Bool) async throws -> [[Float]] {
        try await pool.run(task: "embeddings") {
            try embedder.embed(texts, options: EmbeddingOptions(normalize: normalize))
        }
    }
}
