import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench import`: imports each given export (any format, detected) several times and prints
/// per file the format, the counts and the fastest and median wall-clock seconds as JSON lines
/// (benchmarks/import_speed.py writes 10,000-utterance exports and puts Python's parse time beside).
struct ImportBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Time importing exports (detection included); print JSON per input.")

    @Argument(help: "Exports to import (files, folders or zips).")
    var inputs: [String]

    @Option(help: "Repetitions per input.") var repeats: Int = 5

    func validate() throws {
        guard (1...1000).contains(repeats) else { throw ValidationError("--repeats must be 1...1000") }
    }

    func run() throws {
        let clock = ContinuousClock()
        for input in inputs {
            var times: [Double] = [], cpu: [Double] = []
            var result: ImportResult?
            for _ in 0..<repeats {
                let start = clock.now
                let cpuStart = Self.cpuSeconds()
                result = try IntentImporter.importDataset(from: URL(fileURLWithPath: input))
                cpu.append(Self.cpuSeconds() - cpuStart)
                times.append((clock.now - start).seconds)
            }
            guard let result else { continue }
            times.sort()
            cpu.sort()
            let entities = result.dataset.intents.reduce(0) { $0 + $1.utterances.reduce(0) { $0 + $1.entities.count } }
            let row: [String: Any] = [
                "input": input, "format": result.format.rawValue, "intents": result.dataset.intents.count,
                "utterances": result.dataset.utteranceCount + result.dataset.counterexamples.count + (result.testDataset?.utteranceCount ?? 0),
                "annotations": entities, "best_seconds": times[0], "median_seconds": times[times.count / 2],
                "best_cpu_seconds": cpu[0],
            ]
            let data = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// User + system CPU seconds of this process: on a loaded machine the wall clock measures the
    /// other processes too.
    static func cpuSeconds() -> Double {
        Double(clock()) / Double(CLOCKS_PER_SEC)
    }
}
