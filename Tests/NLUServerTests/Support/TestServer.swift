import Foundation
import Logging
import NLUIntents
import NLUQuestionAnswering
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
    static func start(models: ServedModels? = nil,
                      configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workers = 2
        configure(&configuration)
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        let server = try NLUHTTPServer(models: try models ?? Fixtures.models(), configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
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

/// Models for the tests: a small intents classifier trained here (seeded, well under a second) and
/// the committed tiny DistilBERT QA checkpoint.
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
                                  questionAnsweringPath: "qa/distilbert-tiny")
        cache.value = models
        return models
    }

    static let qaDirectory = directory.appendingPathComponent("qa/distilbert-tiny")

    private static let lock = NSLock()
    private final class Cache: @unchecked Sendable { var value: ServedModels? }   // guarded by `lock`
    private static let cache = Cache()

    private static func trainIntents() throws -> IntentClassifier {
        let dataset = IntentDataset(intents: [
            Intent(name: "turn_on", utterances: ["turn on the radio", "switch the lights on", "turn the heater on",
                                                 "lights on please", "start the wipers"]),
            Intent(name: "turn_off", utterances: ["turn off the radio", "switch the lights off", "turn the heater off",
                                                  "lights off please", "stop the wipers"]),
            Intent(name: "weather", utterances: ["will it rain today", "what is the weather", "is it snowing tonight",
                                                 "weather forecast please", "how hot is it outside"]),
        ])
        var training = TrainingOptions()
        training.hiddenSizes = [16]
        training.epochs = 40
        training.validationSplit = 0
        training.dropout = 0
        return try IntentClassifier.train(on: dataset, training: training)
    }
}

/// Runs `body` against a fresh server and stops the server afterwards, also when `body` throws.
func withTestServer(models: ServedModels? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
                    _ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start(models: models, configure: configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
