import Hummingbird
import NLUDialogue

/// What the route handlers share: the models, the inference pool and encoder batchers, the limits and the metrics.
/// Each route lives in its own file as an extension that registers it; handlers only decode the
/// request, call the task API on the pool and encode its answer.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ServerRoutes: Sendable {
    let models: ServedModels
    /// Where conversations are kept, when a dialogue is served.
    let conversations: (any ConversationStore)?
    let pool: InferencePool
    /// The encoder batchers of the models whose requests share batches.
    let batchers: EncoderBatchers
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let started: ContinuousClock.Instant

    func register(on router: Router<BasicRequestContext>) {
        registerServiceRoutes(on: router)
        registerParseRoute(on: router)
        registerQuestionAnsweringRoute(on: router)
        registerEmbeddingRoutes(on: router)
        registerConversationRoutes(on: router)
        registerRasaWebhookRoute(on: router)
        registerPlaygroundRoute(on: router)
    }

    /// The body as `T`, within the body limit; the decoder carries the limits checked while decoding
    /// (the texts of an embeddings request).
    func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await JSONRequestBody.decode(type, from: request, limit: configuration.maxBodyBytes,
                                         userInfo: [EmbeddingsAPI.maxTextsKey: configuration.maxEmbeddingTexts])
    }

    /// 422 when `text` is longer than the configured limit, naming the field.
    func checkLength(_ text: String, field: String) throws {
        let length = text.unicodeScalars.count
        guard length <= configuration.maxTextLength else {
            throw APIError.unprocessable(
                "field '\(field)': \(length) characters is over this server's limit of \(configuration.maxTextLength) (--max-text-length)")
        }
    }
}
