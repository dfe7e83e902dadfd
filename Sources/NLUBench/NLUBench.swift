import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench`: the Swift side of the benchmarks in `benchmarks/`. Each subcommand measures one
/// capability and prints JSON on stdout, which the benchmark scripts put next to the Python peer's.
@main
struct NLUBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nlu-bench",
        abstract: "NLUKit benchmarks (run through the scripts in benchmarks/).",
        subcommands: [
            BLASInfoBenchmark.self,
            CoreMLBenchmark.self,
            DialogueBenchmark.self,
            IntentsBenchmark.self,
            JointTaggerBenchmark.self,
            ImportBenchmark.self,
            KernelsBenchmark.self,
            TrainingProductsBenchmark.self,
            LanguageModelBenchmark.self,
            QABenchmark.self,
            SearchBenchmark.self,
            SearchMatrixBenchmark.self,
            TokenizerBenchmark.self,
            EmbeddingsBenchmark.self,
            EntitiesBenchmark.self,
            TrainingBenchmark.self,
        ]
    )

    static func main() {
        // A forced level the CPU cannot run, or a thread count out of 1...1024, is refused, as `nlu` does: a
        // benchmark of it would silently measure another level or thread count.
        if let problem = CPULevel.overrideProblem ?? ThreadCountOverride.overrideProblem {
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            Foundation.exit(2)
        }
        // NLUKIT_MAX_INPUT_SIZE moves the input limit as for `nlu` (which also has an option); a malformed one is
        // a usage error.
        InputFile.limitAdvice = "\(InputFile.environmentVariable) (for example 2G)"
        do {
            try InputFile.setMaximumFromEnvironment()
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// `nlu-bench blas-info`: which BLAS and kernels this build runs on.
struct BLASInfoBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "blas-info")
    func run() { print(BLAS.configuration) }
}
