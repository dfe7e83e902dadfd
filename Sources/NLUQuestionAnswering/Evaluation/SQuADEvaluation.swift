import Foundation

/// Runs a ``QuestionAnswerer`` over a SQuAD dataset and scores it with ``SQuADMetrics``.
///
///     let report = try SQuADEvaluation.evaluate(qa, on: dataset)
///     print(report.exactMatch, report.f1)   // percentages, as the official script prints them
public enum SQuADEvaluation {
    /// Exact match and F1 in percent over `count` questions, and the time spent answering.
    public struct Report: Sendable, Equatable, Codable {
        /// Exact match, in percent.
        public var exactMatch: Double
        /// Token F1, in percent.
        public var f1: Double
        /// Number of questions scored.
        public var count: Int
        /// Wall time spent answering, in seconds.
        public var seconds: Double
        /// Average answering time per question.
        public var secondsPerQuestion: Double { count > 0 ? seconds / Double(count) : 0 }
    }

    /// Answers every question (the best answer; "no answer" allowed for SQuAD 2.0 files) and scores it.
    /// `progress` is called after each question with the number done.
    public static func evaluate(_ answerer: QuestionAnswerer, on dataset: SQuADDataset, options: AnswerOptions = .init(),
                                progress: ((Int) -> Void)? = nil) throws -> Report {
        var options = options
        if dataset.isVersion2 { options.handleImpossibleAnswer = true }
        var exact = 0.0, f1 = 0.0
        let clock = ContinuousClock()
        let started = clock.now
        try answerer.validate(options)
        for (index, item) in dataset.questions.enumerated() {
            let prediction: String
            do {
                prediction = try answerer.answers(to: item.question, in: item.context, options: options).first?.text ?? ""
            } catch let error as QuestionAnsweringError {
                throw QuestionAnsweringError.question(id: item.id, reason: error.description)
            }
            exact += SQuADMetrics.exactMatch(prediction: prediction, gold: item.answers)
            f1 += SQuADMetrics.f1(prediction: prediction, gold: item.answers)
            progress?(index + 1)
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let count = dataset.questions.count
        return Report(exactMatch: count > 0 ? 100 * exact / Double(count) : 0,
                      f1: count > 0 ? 100 * f1 / Double(count) : 0, count: count, seconds: seconds)
    }
}
