import Foundation
import NLUEmbeddings
import NLUIntents
import NLUPipelines
import Testing
@testable import NLUServer

/// Concurrent `/embed`, `/v1/embeddings` and `/model/parse` requests share encoder batches and get the
/// answers they get alone: the padding of a shared batch is masked, so a text's vector in it differs
/// from its vector alone only by float rounding, within 1e-5 (measured: about 1e-7).
@Suite("Batching across requests")
struct BatchedRouteTests {
    static let tolerance = 1e-5

    /// Texts of different lengths (so rows are padded in a shared batch), from the embeddings fixture.
    static let texts = ["fox", "Who jumped over the dog?", "The library opens at nine.",
                        "The café in Zürich serves crème brûlée and naïve visitors pay 12.50 francs for it, every single day of the week.",
                        "Jupiter is the largest planet.", "THE QUICK BROWN FOX",
                        "Tokyo (東京) is the capital of Japan; Kyoto (京都) was the old capital for a thousand years.",
                        "a b c d e f g h i j k l m n o p q r s t u v w x y z"]

    static func largestDifference(_ a: [[Double]], _ b: [[Float]]) -> Double {
        guard a.count == b.count, zip(a, b).allSatisfy({ $0.count == $1.count }) else { return .infinity }
        // JSON's numbers are the Floats' shortest decimal forms: back to Float, they are the same Floats.
        return zip(a, b).flatMap { zip($0, $1).map { abs(Double(Float($0)) - Double($1)) } }.max() ?? 0
    }

    /// A metric's value in the server's `/metrics` (the line `name value`), or nil.
    static func metric(_ name: String, _ server: TestServer) async throws -> Double? {
        let text = try await server.request("GET", "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The library's embedder on jobs together and each alone: the same vectors within the tolerance,
    /// normalized or not as each job asked; a job over the token budget fails alone.
    @Test func aSharedPassGivesEachJobTheVectorsItGetsAlone() throws {
        let embedder = try #require(try Fixtures.models().embeddings)
        let jobs = Self.texts.enumerated().map { index, text in
            EmbeddingBatchJob(texts: index == 3 ? [text, "fox"] : [text], field: "inputs", normalize: index % 2 == 0)
        }
        let tokens = jobs.map { $0.texts.reduce(0) { $0 + embedder.tokenIDs($1).count } }
        let budget = ((tokens.min() ?? 0) + (tokens.max() ?? 0)) / 2   // job 3's two texts are over it
        #expect(tokens.contains { $0 > budget } && tokens.contains { $0 <= budget })
        let shared = EmbeddingBatchJob.run(jobs, embedder: embedder, tokenBudget: budget)
        #expect(shared.count == jobs.count)
        for (job, result) in zip(jobs, shared) {
            let alone = EmbeddingBatchJob.run([job], embedder: embedder, tokenBudget: budget)[0]
            switch (result, alone) {
            case let (.success(together), .success(single)):
                #expect(Self.largestDifference(together.vectors.map { $0.map(Double.init) }, single.vectors) <= Self.tolerance)
                #expect(together.tokens == single.tokens)
                let direct = try embedder.embed(job.texts, options: EmbeddingOptions(normalize: job.normalize))
                #expect(Self.largestDifference(together.vectors.map { $0.map(Double.init) }, direct) <= Self.tolerance)
            case let (.failure(together), .failure(single)):
                #expect("\(together)" == "\(single)" && "\(together)".contains("--max-embed-tokens"))
            default:
                Issue.record("\(job.texts): \(result) together, \(alone) alone")
            }
        }
        #expect(shared.filter { if case .failure = $0 { true } else { false } }.count == tokens.filter { $0 > budget }.count)
    }

    @Test func concurrentEmbeddingRequestsShareBatchesAndGetTheirUnbatchedAnswers() async throws {
        let embedder = try #require(try Fixtures.models().embeddings)
        let count = Self.texts.count
        // The batch starts when all have come (it is full) or after the window of a second. The requests go
        // out at once from threads of their own: tasks would each send theirs when a thread of the concurrency
        // pool is free, which other tests can make more than the window apart.
        try await withTestServer(configure: { $0.maxBatch = count; $0.batchWindowMilliseconds = 1000 }) { server in
            let port = server.port
            let requests = try Self.texts.enumerated().map { index, text in
                let (path, body) = index % 2 == 0 ? ("/embed", try jsonString(["inputs": text, "normalize": index % 3 != 0]))
                                                  : ("/v1/embeddings", try jsonString(["input": [text]]))
                return StartedThread { try blockingRequest(port: port, "POST", path, json: body, readTimeout: 60) }
            }
            var answers: [Int: [[Double]]] = [:]
            for (index, request) in requests.enumerated() {
                let response = try await request.value()
                if index % 2 == 0 {
                    answers[index] = try #require(response.json as? [[Double]], "\(response.status) \(response.text)")
                } else {
                    let data = try #require(response.object?["data"] as? [[String: Any]], "\(response.status) \(response.text)")
                    answers[index] = data.compactMap { $0["embedding"] as? [Double] }
                }
            }
            for (index, text) in Self.texts.enumerated() {
                let normalize = index % 2 == 0 ? index % 3 != 0 : true
                let alone = try embedder.embed([text], options: EmbeddingOptions(batchSize: 1, normalize: normalize))
                #expect(Self.largestDifference(try #require(answers[index]), alone) <= Self.tolerance, "\(text)")
            }
            let batches = try #require(try await Self.metric(#"nlu_encoder_batch_requests_count{task="embeddings"}"#, server))
            #expect(batches < Double(count), "each request ran alone")
            #expect(try await Self.metric(#"nlu_encoder_batch_requests_sum{task="embeddings"}"#, server) == Double(count))
        }
    }

    /// An intents model with sentence features from the tiny sentence-transformers fixture and a CRF
    /// tagger: its encoder is read only for the sentence features, which requests share.
    static func intentsWithSentenceFeatures() throws -> IntentClassifier {
        let featurizer = try EmbedderSentenceFeaturizer(model: Fixtures.embeddingsDirectory.path)
        let dataset = IntentDataset(intents: [
            Intent(name: "play_music", utterances: ["play some jazz", "put on music", "play a song", "start the radio"]),
            Intent(name: "weather", utterances: ["is it raining", "weather tomorrow", "how cold is it", "will it snow"]),
            Intent(name: "lights_on", utterances: ["turn the lights on", "switch on the lamp", "lights please", "more light"]),
        ])
        var training = TrainingOptions()
        training.hiddenSizes = [8]
        training.epochs = 20
        training.validationSplit = 0
        return try IntentClassifier.train(on: dataset, training: training, sentenceFeaturizer: featurizer)
    }

    @Test func concurrentParseRequestsShareTheSentenceEncoderAndGetTheirUnbatchedAnswers() async throws {
        let classifier = try Self.intentsWithSentenceFeatures()
        #expect(classifier.sharesEncoderPasses)
        let texts = ["play jazz please", "is it cold outside", "lamp on", "something else entirely", "will it rain tomorrow in Paris", "music"]
        try await withTestServer(models: ServedModels(intents: classifier),
                                 configure: { $0.maxBatch = texts.count; $0.batchWindowMilliseconds = 1000 }) { server in
            // Each answer's ranking: intent names and confidences.
            let port = server.port
            let requests = try texts.map { text in
                let body = try jsonString(["text": text])
                return StartedThread { try blockingRequest(port: port, "POST", "/model/parse", json: body, readTimeout: 60) }
            }
            var answers: [String: ([String?], [Double])] = [:]
            for (text, request) in zip(texts, requests) {
                let response = try await request.value()
                let ranking = try #require(response.object?["intent_ranking"] as? [[String: Any]], "\(response.status) \(response.text)")
                answers[text] = (ranking.map { $0["name"] as? String }, ranking.map { $0["confidence"] as? Double ?? -1 })
            }
            for text in texts {
                let alone = classifier.predict(text, top: RasaParse.rankingLength)
                let (names, confidences) = try #require(answers[text])
                #expect(names == alone.ranking.map(\.intent), "\(text)")
                for (confidence, expected) in zip(confidences, alone.ranking) {
                    #expect(abs(confidence - Double(expected.confidence)) <= Self.tolerance, "\(text)")
                }
            }
            let batches = try #require(try await Self.metric(#"nlu_encoder_batch_requests_count{task="intents"}"#, server))
            #expect(batches < Double(texts.count), "each request ran alone")
        }
    }

    @Test func aModelWithoutAnEncoderAndMaxBatchOneAreServedAloneAsBefore() async throws {
        // The fixture intents model has no encoder: /model/parse never batches; --max-batch 1 turns embedding batches off.
        try await withTestServer(configure: { $0.maxBatch = 1 }) { server in
            let text = Self.texts[1]
            let response = try await server.request("POST", "/embed", json: try jsonString(["inputs": text]))
            let embedder = try #require(try Fixtures.models().embeddings)
            let alone = try embedder.embed([text], options: EmbeddingOptions(normalize: true))
            #expect(Self.largestDifference(try #require(response.json as? [[Double]]), alone) == 0)
            let parse = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#)
            #expect(parse.status == 200)
            let metrics = try await server.request("GET", "/metrics").text
            #expect(!metrics.contains("nlu_encoder_batch_requests"))
        }
        try await withTestServer { server in
            _ = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#)
            #expect(try await Self.metric(#"nlu_encoder_batch_requests_count{task="intents"}"#, server) == nil)
        }
    }
}
