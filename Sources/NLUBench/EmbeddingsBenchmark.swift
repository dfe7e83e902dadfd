import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench embeddings`: sentence-embedding throughput and latency on a model directory. Loads the
/// model (timed apart), embeds every line of --input once as a warm-up and then timed, writes the
/// vectors as raw little-endian float32 to --vectors (for the script's cosine check), the token ids
/// the encoder saw to --token-ids when given (one JSON array per line, for the script's tokenizer check), and times
/// single-sentence calls. Prints JSON; `benchmarks/embeddings.py` runs it next to sentence-transformers.
struct EmbeddingsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embeddings", abstract: "Time sentence embeddings (see benchmarks/embeddings.py).")

    @Option(help: "A sentence-transformers model directory or Hub id.")
    var model: String

    @Option(help: "Sentences, one per line.")
    var input: String

    @Option(help: "Write the embeddings here as raw float32, row after row.")
    var vectors: String

    @Option(name: .customLong("token-ids"), help: "Write each sentence's token ids here, one JSON array per line.")
    var tokenIDs: String?

    @Option(help: "Texts per encoder pass.")
    var batchSize = 32

    @Option(help: "Single-sentence calls timed (the median is reported).")
    var latencyRuns = 200

    @Option(help: "The encoder's dense layers: f32 or int8 (quantized at load).")
    var precision = "f32"

    func run() throws {
        let lines = try BenchmarkInput.text(input).split(separator: "\n").map(String.init)
        var start = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { start = now }
            return Double(now - start) / 1e9
        }
        guard let precision = Precision(rawValue: precision) else {
            throw ValidationError("--precision: expected f32 or int8, got \(precision)")
        }
        let embedder = try SentenceEmbedder(modelDirectory: ModelLocator.resolve(model), precision: precision)
        let loadSeconds = lap()
        let options = EmbeddingOptions(batchSize: batchSize)
        _ = try embedder.embed(lines.prefix(256), options: options)
        _ = lap()
        let result = try embedder.embed(lines, options: options)
        let embedSeconds = lap()
        var latencies: [Double] = []
        for index in 0..<latencyRuns {
            _ = lap()
            _ = try embedder.embed(lines[index % lines.count])
            latencies.append(lap())
        }
        latencies.sort()
        let flat = result.flatMap { $0 }
        try flat.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: vectors)) }
        if let tokenIDs {
            let lines = lines.map { "[" + embedder.tokenIDs($0).map(String.init).joined(separator: ",") + "]\n" }
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: tokenIDs))
        }
        let report: [String: Any] = [
            "blas": BLAS.coreName, "precision": precision.rawValue, "threads": BLAS.defaultThreadCount, "sentences": lines.count,
            "dimension": embedder.dimension, "loadSeconds": loadSeconds, "embedSeconds": embedSeconds,
            "sentencesPerSecond": Double(lines.count) / embedSeconds,
            "latencyMedianMs": latencies.isEmpty ? 0 : latencies[latencies.count / 2] * 1000,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    }
}
