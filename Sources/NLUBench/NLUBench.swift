import ArgumentParser
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
            IntentsBenchmark.self,
            KernelsBenchmark.self,
            LanguageModelBenchmark.self,
            QABenchmark.self,
            SearchBenchmark.self,
            SearchMatrixBenchmark.self,
            TokenizerBenchmark.self,
            EmbeddingsBenchmark.self,
        ]
    )
}

/// `nlu-bench blas-info`: which BLAS and kernels this build runs on.
struct BLASInfoBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "blas-info")
    func run() { print(BLAS.configuration) }
}
