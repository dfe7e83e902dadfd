import Hummingbird
import NLUEmbeddings

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /embed` (TEI) and `POST /v1/embeddings` (OpenAI): the sentence embedder on the texts.
    func registerEmbeddingRoutes(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.embed.path)) { request, _ in
            let embedder = try servedEmbedder()
            let body = try await decode(EmbeddingsAPI.TEIRequest.self, request)
            let (vectors, _) = try await embed(body.inputs, field: "inputs", with: embedder, normalize: body.normalize ?? true)
            return try JSONResponse.make(vectors)
        }
        router.post(.init(RouteTable.openAIEmbeddings.path)) { request, _ in
            let embedder = try servedEmbedder()
            let body = try await decode(EmbeddingsAPI.OpenAIRequest.self, request)
            _ = try EmbeddingsAPI.embedding([], format: body.encodingFormat)   // a bad format fails before the model runs
            let (vectors, tokens) = try await embed(body.input, field: "input", with: embedder, normalize: true)
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

    /// The embeddings of the request's texts (its `field`) and the tokens the encoder saw. Each text's
    /// length is checked first, then, on a worker (tokenizing a megabyte is not for an event loop),
    /// the request's tokens against ``ServerConfiguration/maxEmbeddingTokens`` before the model runs
    /// (``EmbeddingBatchJob``). With batching on, a request of fewer than `--max-batch` texts shares an
    /// encoder batch with concurrent ones (``EncoderBatcher``); a larger one is a batch by itself and goes to
    /// the pool as before, so it never holds up the small ones queued for a batch.
    private func embed(_ input: EmbeddingsAPI.Texts, field: String, with embedder: SentenceEmbedder,
                       normalize: Bool) async throws -> (vectors: [[Float]], tokens: Int) {
        let texts = input.texts
        for (index, text) in texts.enumerated() { try checkLength(text, field: input.isArray ? "\(field)[\(index)]" : field) }
        let job = EmbeddingBatchJob(texts: texts, field: field, normalize: normalize)
        let answer: EmbeddingBatchJob.Answer
        if let batcher = batchers.embeddings, texts.count < configuration.maxBatch {
            answer = try await batcher.submit(job, size: texts.count)
        } else {
            let budget = configuration.maxEmbeddingTokens
            answer = try await pool.run(task: "embeddings") { try EmbeddingBatchJob.run([job], embedder: embedder, tokenBudget: budget)[0].get() }
        }
        return (answer.vectors, answer.tokens)
    }
}
