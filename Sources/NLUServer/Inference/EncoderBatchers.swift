import NLUIntents

/// The served models' batchers: one per model whose requests share encoder batches (the sentence
/// embedder; the intents model when ``IntentClassifier/sharesEncoderPasses``), none with
/// ``ServerConfiguration/maxBatch`` 1 (each request its own encoder call, on the pool, as before batching).
///
/// Each is bounded as the pool is (``ServerConfiguration/maxQueuedRequests`` waiting requests), runs
/// as many batches at once as there are workers, and gives a request until its ``ServerConfiguration/requestTimeout``
/// to reach a batch.
struct EncoderBatchers: Sendable {
    let embeddings: EncoderBatcher<EmbeddingBatchJob, EmbeddingBatchJob.Answer>?
    let parse: EncoderBatcher<ParseBatchJob, IntentPrediction>?

    init(models: ServedModels, configuration: ServerConfiguration, pool: InferencePool, metrics: ServerMetrics) {
        guard configuration.maxBatch > 1 else {
            embeddings = nil
            parse = nil
            return
        }
        func batcher<Input: Sendable, Output: Sendable>(_ task: String, _ process: @escaping EncoderBatcher<Input, Output>.Process) -> EncoderBatcher<Input, Output> {
            EncoderBatcher(task: task, window: .nanoseconds(Int64(configuration.batchWindowMilliseconds * 1e6)), maxBatch: configuration.maxBatch,
                           slots: configuration.workers, maxQueued: configuration.maxQueuedRequests,
                           deadline: .nanoseconds(Int64(configuration.requestTimeout * 1e9)), pool: pool, metrics: metrics, process: process)
        }
        let budget = configuration.maxEmbeddingTokens
        embeddings = models.embeddings.map { embedder in
            batcher("embeddings") { EmbeddingBatchJob.run($0, embedder: embedder, tokenBudget: budget) }
        }
        parse = models.intents.flatMap { classifier in
            guard classifier.sharesEncoderPasses else { return nil }
            return batcher("intents") { ParseBatchJob.run($0, sharing: classifier) }
        }
    }
}
