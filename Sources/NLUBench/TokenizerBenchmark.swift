import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench tokenizer`: BERT-encodes every line of a text file, single-threaded, and prints the
/// throughput as JSON (driven by benchmarks/tokenizer.py, which runs the Rust tokenizer on the same lines).
struct TokenizerBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenizer",
        abstract: "Encode each line of --input with a vocab.txt; print tokens per second as JSON.")

    @Option(help: "vocab.txt of the tokenizer.")
    var vocab: String

    @Option(help: "Text file, one input per line (UTF-8).")
    var input: String

    @Flag(help: "Keep case and accents.")
    var cased = false

    @Option(help: "Timed passes over the input; the fastest is reported.")
    var repeats: Int = 3

    func run() throws {
        var options = BertTokenizer.Options.uncased
        options.lowercase = !cased
        let tokenizer = try BertTokenizer(vocabulary: try Vocabulary(contentsOf: URL(fileURLWithPath: vocab)), options: options)
        let text = try BenchmarkInput.text(input)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // CPU time of the process as well as wall time: the machine is shared, and CPU time is what a
        // single-threaded tokenizer spends whatever else runs.
        var bestWall = Double.infinity, bestCPU = Double.infinity
        var tokens = 0, idSum = 0
        for _ in 0..<max(1, repeats) {
            let wallStart = DispatchTime.now().uptimeNanoseconds, cpuStart = Self.cpuSeconds()
            var passTokens = 0, passIDSum = 0
            for line in lines {
                let encoding = tokenizer.encode(line)
                passTokens += encoding.count
                passIDSum &+= encoding.ids.reduce(0) { $0 &+ Int($1) }
            }
            bestCPU = min(bestCPU, Self.cpuSeconds() - cpuStart)
            bestWall = min(bestWall, Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9)
            tokens = passTokens
            idSum = passIDSum
        }
        print("{\"inputs\":\(lines.count),\"bytes\":\(text.utf8.count),\"tokens\":\(tokens),\"id_sum\":\(idSum),"
              + "\"seconds\":\(bestWall),\"cpu_seconds\":\(bestCPU)}")
    }

    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
