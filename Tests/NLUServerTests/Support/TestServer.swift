import Foundation
import Logging
import NLUDialogue
import NLUEmbeddings
import NLUIntents
import NLUQuestionAnswering
import NLUTestSupport
@testable import NLUServer

/// A server running in this process on an ephemeral loopback port, stopped with ``stop()``.
final class TestServer: @unchecked Sendable {
    let port: Int
    let server: NLUHTTPServer
    private let task: Task<Void, any Error>

    private init(port: Int, server: NLUHTTPServer, task: Task<Void, any Error>) {
        self.port = port
        self.server = server
        self.task = task
    }

    /// Starts a server for `models` with `configure` applied to the defaults (port 0).
    static func start(models: ServedModels? = nil, conversations: (any ConversationStore)? = nil,
                      configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workers = 2
        configure(&configuration)
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        let server = try NLUHTTPServer(models: try models ?? Fixtures.models(), configuration: configuration, conversations: conversations,
                                       logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task(executorPreference: ServerThreads.shared) {
            defer { continuation.finish() }
            try await server.run(stopOnSignals: false) { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value   // surfaces the bind error
            throw RawHTTPError(description: "the server stopped before listening")
        }
        return TestServer(port: port, server: server, task: task)
    }

    /// Stops the server and waits until it has.
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil) async throws -> RawHTTPResponse {
        try await httpRequest(port: port, method, path, headers: headers, json: json)
    }
}

/// Models for the tests: a small intents classifier trained here (seeded, well under a second), the
/// committed tiny DistilBERT QA checkpoint and the tiny sentence-transformers model.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The models, built once per test process and shared.
    static func models() throws -> ServedModels {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache.value { return cached }
        let models = ServedModels(intents: try trainIntents(), intentsPath: "intents-test",
                                  questionAnswering: try QuestionAnswerer(modelDirectory: qaDirectory),
                                  questionAnsweringPath: "qa/distilbert-tiny",
                                  embeddings: try SentenceEmbedder(modelDirectory: embeddingsDirectory),
                                  embeddingsPath: "embeddings/minilm-tiny")
        cache.value = models
        return models
    }

    static let qaDirectory = directory.appendingPathComponent("qa/distilbert-tiny")
    static let embeddingsDirectory = directory.appendingPathComponent("embeddings/minilm-tiny")

    private static let lock = NSLock()
    private final class Cache: @unchecked Sendable { var value: ServedModels? }   // guarded by `lock`
    private static let cache = Cache()

    private static func trainIntents() throws -> IntentClassifier {
        // "the radio" etc. are annotated, and the appliance dictionary maps synonyms ("stereo" is the radio).
        func appliance(_ text: String, _ word: String) -> Utterance {
            let start = text.range(of: word).map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
            return Utterance(text, entities: [EntityAnnotation(start: start, end: start + word.unicodeScalars.count, entity: "appliance")])
        }
        let dataset = IntentDataset(intents: [
            Intent(name: "turn_on", utterances: [appliance("turn on the radio", "radio"), appliance("switch the lights on", "lights"),
                                                 appliance("turn the heater on", "heater"), appliance("lights on please", "lights"),
                                                 appliance("start the wipers", "wipers")]),
            Intent(name: "turn_off", utterances: [appliance("turn off the radio", "radio"), appliance("switch the lights off", "lights"),
                                                  appliance("turn the heater off", "heater"), appliance("lights off please", "lights"),
                                                  appliance("stop the wipers", "wipers")]),
            Intent(name: "weather", utterances: ["will it rain today", "what is the weather", "is it snowing tonight",
                                                 "weather forecast please", "how hot is it outside"]),
        ], entities: [EntityDefinition(name: "appliance", values: [EntityValue("radio", synonyms: ["stereo"]), EntityValue("heater"),
                                                                  EntityValue("lights"), EntityValue("wipers")])])
        var training = TrainingOptions()
        training.hiddenSizes = [16]
        training.epochs = 40
        training.validationSplit = 0
        training.dropout = 0
        return try IntentClassifier.train(on: dataset, training: training)
    }
}

/// Runs `body` against a fresh server and stops the server afterwards, also when `body` throws.
func withTestServer(models: ServedModels? = nil, conversations: (any ConversationStore)? = nil,
                    configure: (inout ServerConfiguration) -> Void = { _ in },
                    _ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start(models: models, conversations: conversations, configure: configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
