import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench coreml`: loads a `.mlmodel`, predicts on one JSON input `--repeats` times and prints the load time, the
/// median and fastest prediction, and the outputs (driven by benchmarks/coreml.py, which runs PyTorch on the same
/// weights and compares both the outputs and the times).
struct CoreMLBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coreml",
        abstract: "Time CoreMLModel predictions on one input; print JSON.")

    @Option(help: "The .mlmodel file.")
    var model: String

    @Option(help: "A JSON file of input features (as for nlu coreml predict).")
    var input: String

    @Option(help: "Timed predictions (after one warm-up).")
    var repeats: Int = 20

    func run() throws {
        guard (1...10_000).contains(repeats) else { throw ValidationError("--repeats must be 1 to 10000") }
        let loadStart = DispatchTime.now().uptimeNanoseconds
        let coreML = try CoreMLModel(contentsOf: URL(fileURLWithPath: model))
        let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9
        let data = try BenchmarkInput.data(input)
        let features = try FeatureJSON.provider(from: data, for: coreML.modelDescription)
        var output = try coreML.prediction(from: features)
        var times = [Double]()
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            output = try coreML.prediction(from: features)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        let outputs = String(decoding: try FeatureJSON.data(from: output), as: UTF8.self)
        print("{\"load_seconds\":\(loadSeconds),\"median_ms\":\(times[times.count / 2]),\"min_ms\":\(times[0]),"
              + "\"threads\":\(Kernels.threadCount),\"result\":\(outputs)}")
    }
}
