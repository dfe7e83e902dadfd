import ArgumentParser
import Foundation
import NLUKit

/// `nlu qa evaluate`: official SQuAD exact match and F1 of a checkpoint on a SQuAD JSON file.
struct QAEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a checkpoint on a SQuAD v1.1 / v2.0 file: exact match and F1 (official normalization).",
        discussion: """
        Each question is answered with the best answer; for SQuAD 2.0 files (version "v2.0" or questions \
        marked is_impossible) "no answer" is allowed and counts as right for unanswerable questions. \
        Prints EM, F1 (percent), the number of questions and the seconds per question; --json prints \
        {"exact_match", "f1", "count", "seconds_per_question"}. Progress goes to stderr.
        """)

    @OptionGroup var modelOptions: QAModelOptions
    var model: String { modelOptions.model }

    @Option(help: ArgumentHelp("A SQuAD-format JSON file (e.g. dev-v1.1.json or dev-v2.0.json; \"-\": standard input).", valueName: "file"))
    var squad: String

    @Option(help: ArgumentHelp("Only the first N questions.", valueName: "n"))
    var limit: Int?

    @OptionGroup var reading: QAReadingOptions

    @Flag(help: "Print JSON on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
    }

    private struct Summary: Encodable {
        var exact_match: Double
        var f1: Double
        var count: Int
        var seconds_per_question: Double
    }

    func run() throws {
        let answerer = try modelOptions.load()
        try reading.check(against: answerer)
        let file = squad == "-" ? "standard input" : squad
        var dataset = try SQuADDataset(data: Console.readData(path: squad), file: file)
        if let limit { dataset.questions = Array(dataset.questions.prefix(limit)) }
        let total = dataset.questions.count
        var lastReport = Date()
        let report: SQuADEvaluation.Report
        do {
            report = try SQuADEvaluation.evaluate(answerer, on: dataset, options: reading.answerOptions) { done in
                if Date().timeIntervalSince(lastReport) > 2 {
                    Console.log("qa evaluate: \(done)/\(total)")
                    lastReport = Date()
                }
            }
        } catch let error as QuestionAnsweringError {
            guard case .question = error else { throw error }
            // One question of the file could not be answered (too long for the window, ...): name the file too.
            throw InputError("\(file): \(error)")
        }
        if json {
            Console.print(QAJSON.string(Summary(exact_match: report.exactMatch, f1: report.f1, count: report.count,
                                        seconds_per_question: report.secondsPerQuestion)))
        } else {
            Console.print(String(format: "exact match %.2f  F1 %.2f  questions %d  %.4f s/question",
                         report.exactMatch, report.f1, report.count, report.secondsPerQuestion))
        }
    }
}
