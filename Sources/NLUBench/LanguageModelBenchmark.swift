import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench lm`: the Swift side of `benchmarks/lm.py` (single-step prediction latency and
/// character-level training throughput), printing JSON on stdout.
struct LanguageModelBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lm",
        abstract: "Language-model benchmarks: single-step prediction latency, training throughput.",
        subcommands: [PredictLatency.self, TrainThroughput.self])

    /// Feeds `steps` tokens one at a time through `prediction(from:using:)` (string in, top-5
    /// dictionary out), token t = (t · 7919) mod vocabulary, and reports per-step latency.
    struct PredictLatency: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "predict")

        @Option(help: "The model package.")
        var model: String

        @Option(help: "Timed steps.")
        var steps: Int = 500

        @Option(help: "Untimed warm-up steps.")
        var warmup: Int = 20

        func run() throws {
            let languageModel = try LanguageModel(contentsOf: URL(fileURLWithPath: model))
            let tokens = languageModel.vocabulary.tokens
            let state = languageModel.makeState()
            var latencies: [Double] = []
            for step in 0..<(warmup + steps) {
                let word = tokens[(step * 7919) % tokens.count]
                let input = DictionaryFeatureProvider([LanguageModel.FeatureName.previousWord: .string(word)])
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try languageModel.prediction(from: input, using: state)
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
                if step >= warmup { latencies.append(elapsed) }
                if step == warmup - 1 { state.reset() }
            }
            latencies.sort()
            let checksum = state.tensor.scalars.reduce(0) { $0 + Double($1) }
            print(#"{"medianMicroseconds": \#(latencies[latencies.count / 2]), "meanMicroseconds": \#(latencies.reduce(0, +) / Double(latencies.count)), "stateChecksum": \#(checksum)}"#)
        }
    }

    /// Trains a model package for `steps` batches on a corpus (character streams as the trainer builds
    /// them, the last 10% held out), then reports tokens/second and the validation loss.
    struct TrainThroughput: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "train")

        @Option(help: "The initial model package (its vocabulary and weights).")
        var model: String

        @Option(help: "The corpus text file.")
        var corpus: String

        @Option(help: "Training steps (batches).")
        var steps: Int = 50

        @Option(help: "Untimed first steps.")
        var warmup: Int = 3

        @Option var batchSize: Int = 32
        @Option var sequenceLength: Int = 100
        @Option var learningRate: Float = 0.002
        @Option var clipNorm: Float = 5
        @Option(help: "Validation tokens evaluated (from the start of the held-out 10%).")
        var validationTokens: Int = 20_000

        func run() throws {
            let initial = try LanguageModel(contentsOf: URL(fileURLWithPath: model))
            let text = try BenchmarkInput.text(corpus)
            let tokens = initial.tokenizer.corpusTokens(in: text, endToken: initial.configuration.endToken)
            let ids = tokens.map { initial.vocabulary.idOrUnknown(for: $0) }
            let held = Int((Double(ids.count) * 0.1).rounded())
            let training = Array(ids[..<(ids.count - held)])
            let validation = Array(ids[(ids.count - held)...].prefix(validationTokens))
            let session = LanguageModelTrainingSession(model: initial, learningRate: learningRate, clipNorm: clipNorm)
            var losses: [Float] = []
            var start = DispatchTime.now().uptimeNanoseconds
            var timedTokens = 0
            for (index, batch) in TokenBatches(ids: training, batchSize: batchSize, sequenceLength: sequenceLength)
                .prefix(steps).enumerated() {
                if index == warmup { start = DispatchTime.now().uptimeNanoseconds }
                losses.append(session.step(batch))
                if index >= warmup { timedTokens += batch.inputs.count }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let report = session.model.evaluate(ids: validation, batchSize: 10, sequenceLength: sequenceLength)
            let idChecksum = ids.enumerated().reduce(0) { $0 &+ Int($1.element) &* ($1.offset % 9973) }
            print(#"{"tokensPerSecond": \#(Double(timedTokens) / seconds), "steps": \#(losses.count), "firstLoss": \#(losses.first ?? 0), "lastLoss": \#(losses.last ?? 0), "validationLoss": \#(report.loss), "tokens": \#(ids.count), "idChecksum": \#(idChecksum)}"#)
        }
    }
}
