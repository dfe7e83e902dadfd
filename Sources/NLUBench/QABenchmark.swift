import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench qa`: latency of the BERT QA encoder (one forward pass, batch 1) at given sequence
/// lengths (median and best), the start logits of the last length (for the script to compare with
/// PyTorch), then peak resident memory after answering a question over a multi-window document, and
/// the time to answer over a 100-page text with BM25 passage search (3 paragraphs read).
/// Prints JSON; `benchmarks/qa.py` runs it next to PyTorch and ONNX Runtime.
struct QABenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qa", abstract: "Time the QA encoder on a checkpoint directory (see benchmarks/qa.py).")

    @Option(help: "A BertForQuestionAnswering / DistilBertForQuestionAnswering checkpoint directory.")
    var model: String

    @Option(help: "Comma-separated sequence lengths.")
    var lengths: String = "384,128"

    @Option(help: "Timed runs per length (the median is reported).")
    var iterations: Int = 10

    @Flag(help: "Skip the end-to-end answering run (and its memory figure).")
    var skipAnswer = false

    func validate() throws {
        let values = lengths.split(separator: ",").map { Int($0) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 18 && ($0 ?? 0) <= 512 }) else {
            throw ValidationError("--lengths must be comma-separated lengths between 18 and 512, got \(lengths)")
        }
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    func run() throws {
        let directory = URL(fileURLWithPath: model)
        let qaModel = try BertQAModel(modelDirectory: directory)
        var latencies: [String: [Double]] = [:]
        var startLogits: [Float] = []
        for length in lengths.split(separator: ",").compactMap({ Int($0) }) {
            let batch = try Self.batch(length: length)
            _ = try qaModel.logits(batch)
            _ = try qaModel.logits(batch)
            var samples: [Double] = []
            for _ in 0..<max(1, iterations) {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try qaModel.logits(batch)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            samples.sort()
            latencies[String(length)] = [samples[samples.count / 2], samples[0]]
            startLogits = try qaModel.logits(batch).start
        }
        var windows = 0
        var passageSeconds = 0.0
        if !skipAnswer {
            let answerer = QuestionAnswerer(model: qaModel, tokenizer: try BertTokenizer(modelDirectory: directory),
                                            modelMaxLength: 512)
            let words = ["the", "fox", "river", "city", "dog", "was", "in", "of", "and", "kalomi", "nerusa"]
            let document = (0..<900).map { words[($0 * 7) % words.count] }.joined(separator: " ")
            let question = "where was the fox"
            windows = try answerer.tokenizer.encodePair(question, document, maxLength: 384, stride: 128).count
            _ = try answerer.answers(to: question, in: document)
            // A 100-page text (2,000 paragraphs, ~250k words) read through BM25 passage search.
            let book = (0..<2000).map { paragraph in
                (0..<125).map { words[($0 * 7 + paragraph * 3) % words.count] }.joined(separator: " ")
                    + (paragraph == 1234 ? " The fox lived in Kalomi city." : "")
            }.joined(separator: "\n\n")
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try answerer.answers(to: "Where did the fox live?", in: book,
                                     options: AnswerOptions(passageSearch: PassageSearchOptions(maxPassages: 3)))
            passageSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let report: [String: Any] = [
            "blas": BLAS.coreName,
            "level": CPULevel.current.name,
            "threads": BLAS.defaultThreadCount,
            "latencies": latencies,
            "startLogits": startLogits,
            "answerWindows": windows,
            "peakResidentMB": Self.peakResidentMegabytes(),
            "passageSearchSeconds": passageSeconds,
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// [CLS] 14 question tokens [SEP] context [SEP], the same ids as benchmarks/qa.py.
    static func batch(length: Int) throws -> EncoderBatch {
        var ids: [Int32] = [101] + (0..<14).map { Int32(2000 + ($0 * 37) % 20000) } + [102]
        ids += (0..<(length - ids.count - 1)).map { Int32(1000 + ($0 * 7919) % 29000) } + [102]
        let types = [Int32](repeating: 0, count: 16) + [Int32](repeating: 1, count: length - 16)
        return try EncoderBatch(tokenIDs: [ids], tokenTypeIDs: [types], padID: 0)
    }

    /// VmHWM from /proc/self/status, in MiB.
    static func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return -1 }
        return kilobytes / 1024
    }
}
