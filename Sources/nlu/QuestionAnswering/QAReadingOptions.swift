import ArgumentParser
import NLUKit

/// The options of `nlu qa ask` / `nlu qa evaluate` that shape how a document is read
/// (the pipeline's parameters, same defaults).
struct QAReadingOptions: ParsableArguments {
    @Option(name: [.customLong("top-k"), .customShort("k")], help: ArgumentHelp("Number of answers to return.", valueName: "n"))
    var topK: Int = 1

    @Option(help: ArgumentHelp("Tokens per window, question and special tokens included (default: min(model_max_length, 384)).", valueName: "n"))
    var maxSeqLength: Int?

    @Option(help: ArgumentHelp("Tokens of overlap between windows (default: min(max-seq-length / 2, 128)).", valueName: "n"))
    var docStride: Int?

    @Option(help: ArgumentHelp("Longest answer, in tokens.", valueName: "n"))
    var maxAnswerLength: Int = 15

    @Option(help: ArgumentHelp("Questions are cut to this many tokens.", valueName: "n"))
    var maxQuestionLength: Int = 64

    @Flag(help: "Allow \"no answer\" (empty, at 0..0) when the model prefers it.")
    var handleImpossibleAnswer = false

    @Flag(help: "Keep token boundaries instead of widening answers to whole words.")
    var noAlignToWords = false

    @Option(help: ArgumentHelp("Read only the N paragraphs that best match the question (BM25), for very long texts; with --index, the N passages retrieved (default 5).", valueName: "n"))
    var passages: Int?

    func validate() throws {
        guard topK >= 1 else { throw ValidationError("--top-k must be at least 1, got \(topK)") }
        guard maxAnswerLength >= 1 else { throw ValidationError("--max-answer-length must be at least 1, got \(maxAnswerLength)") }
        guard maxQuestionLength >= 1 else { throw ValidationError("--max-question-length must be at least 1, got \(maxQuestionLength)") }
        if let maxSeqLength, maxSeqLength < 4 { throw ValidationError("--max-seq-length must be at least 4, got \(maxSeqLength)") }
        if let docStride, docStride < 0 { throw ValidationError("--doc-stride must not be negative, got \(docStride)") }
        if let maxSeqLength, let docStride, docStride > maxSeqLength {
            throw ValidationError("--doc-stride (\(docStride)) must not exceed --max-seq-length (\(maxSeqLength))")
        }
        if let passages, passages < 1 { throw ValidationError("--passages must be at least 1, got \(passages)") }
    }

    /// The flag of each option the library names in ``QuestionAnsweringError/invalidOption(name:reason:)``.
    static let flags = ["top k": "--top-k", "max answer length": "--max-answer-length", "max question length": "--max-question-length",
                        "max sequence length": "--max-seq-length", "document stride": "--doc-stride"]

    /// Checks the options against the loaded model (the window within its positions, the stride within
    /// the window) before any text is read: a usage error (exit 2) naming the flag at fault.
    func check(against answerer: QuestionAnswerer) throws {
        do {
            try answerer.validate(answerOptions)
        } catch QuestionAnsweringError.invalidOption(let name, let reason) {
            throw ValidationError("\(Self.flags[name] ?? name) \(reason)")
        }
    }

    /// `error` with the library's option names replaced by their flags, for the errors that name them.
    static func naming(_ error: Error) -> Error {
        guard case QuestionAnsweringError.questionTooLong = error else { return error }
        var message = "\(error)"
        for (name, flag) in flags { message = message.replacingOccurrences(of: name, with: "\(name) (\(flag))") }
        return InputError(message)
    }

    var answerOptions: AnswerOptions {
        AnswerOptions(topK: topK, maxSequenceLength: maxSeqLength, documentStride: docStride,
                      maxQuestionLength: maxQuestionLength, maxAnswerLength: maxAnswerLength,
                      handleImpossibleAnswer: handleImpossibleAnswer, alignToWords: !noAlignToWords,
                      passageSearch: passages.map { PassageSearchOptions(maxPassages: $0) })
    }
}
