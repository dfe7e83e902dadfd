import ArgumentParser
import Foundation
import NLUKit

/// `nlu qa ask`: answers one question about a text, or a JSONL batch of them.
struct QAAskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Answer a question about a text (or a JSONL file of questions).",
        discussion: """
        The text comes from --context, --context-file or standard input. Output: one line per answer, \
        best first; with --json {"answers": [{"answer": ..., "score": ..., "start": ..., "end": ...}]} \
        where start/end are Unicode-scalar offsets into the context (as Python counts them).

        Batch mode: --input FILE.jsonl holds one {"id": ..., "question": ..., "context": ...} per line; \
        the model is loaded once and one line {"id": ..., "answers": [...]} is written per input, in \
        order, to -o/--output or standard output. A bad line is reported on stderr with its line number, \
        written as {"id": ..., "line": N, "error": ...}, and the rest is still answered; the exit code \
        is then 1. An existing --output file is replaced only when it is such a results file (or empty) \
        unless --force.

        Over a collection: --index DB retrieves the best passages of a document index (hybrid when it \
        has vectors: its embedding model is loaded from the index; --passages N, default 5), reads \
        them with the QA model, and prints the best answers with their document id; with --json \
        {"answers": [{"answer", "score", "document", "start", "end"}]}, offsets into that document. A \
        question whose vector is zero (no term the model knows) retrieves by keyword alone: a note on \
        stderr says so, and the JSON has "zeroQueryVector": true.

        Example: nlu qa ask --model distilbert-base-cased-distilled-squad --question "Who jumped?" \
        --context "The quick brown fox jumps over the lethargic dog."
        """)

    @OptionGroup var modelOptions: QAModelOptions
    var model: String { modelOptions.model }

    @Option(help: ArgumentHelp("The question.", valueName: "text"))
    var question: String?

    @Option(help: ArgumentHelp("The text to find the answer in.", valueName: "text"))
    var context: String?

    @Option(help: ArgumentHelp("Read the text from this file.", valueName: "file"))
    var contextFile: String?

    @Option(help: ArgumentHelp("Batch mode: a JSONL file of {\"id\", \"question\", \"context\"} objects (\"-\": standard input).", valueName: "file"))
    var input: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Batch mode: write the JSONL results here instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Batch mode: replace an existing file at --output even when it is not an answers file nlu wrote.")
    var force = false

    @Option(help: ArgumentHelp("Answer from the documents of this index (see nlu index).", valueName: "db"))
    var index: String?

    @OptionGroup var reading: QAReadingOptions

    @Flag(help: "Print JSON on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        if index != nil {
            guard input == nil, context == nil, contextFile == nil else {
                throw ValidationError("--index excludes --input, --context and --context-file")
            }
            guard let question, question.contains(where: { !$0.isWhitespace }) else { throw ValidationError("give --question") }
            // --index prints its answers: an --output (or --force) would be silently ignored.
            guard output == nil, !force else { throw ValidationError("--output and --force need --input (batch mode), not --index") }
            // The question is the index's (hybrid) query: the library's query limits, as a usage error naming the flag,
            // before the model and the index are opened.
            do { _ = try KeywordQuery(question) } catch {
                throw ValidationError("--question: \(error) (with --index, the question is the index's query)")
            }
            return
        }
        if input != nil {
            guard question == nil, context == nil, contextFile == nil else {
                throw ValidationError("--input (batch mode) excludes --question, --context and --context-file")
            }
            guard !force || output != nil else { throw ValidationError("--force applies to --output") }
            return
        }
        guard output == nil else { throw ValidationError("--output needs --input (batch mode)") }
        guard !force else { throw ValidationError("--force applies to --output (batch mode)") }
        guard let question else { throw ValidationError("give --question (or --input FILE.jsonl for a batch)") }
        guard !question.allSatisfy(\.isWhitespace) else { throw ValidationError("--question is empty") }
        guard context == nil || contextFile == nil else { throw ValidationError("give --context or --context-file, not both") }
        if let context, context.allSatisfy(\.isWhitespace) { throw ValidationError("--context is empty") }
    }

    func run() throws {
        if let index {
            try answerFromIndex(at: index)
            return
        }
        if let input, let output {
            try Console.checkOutput(output, inputs: [input, model])
            // Before the model loads: a file nlu did not write (the user's notes) is never replaced unasked.
            try QAAnswersFile.output.checkReplaceable(URL(fileURLWithPath: output), force: force,
                                                      remedy: "choose another path, move it away, or pass --force to replace it")
        }
        let answerer = try modelOptions.load()
        try reading.check(against: answerer)
        if let input {
            try QABatch(answerer: answerer, options: reading.answerOptions).run(input: input, output: output)
            return
        }
        let text = try readContext()
        guard !text.allSatisfy(\.isWhitespace) else {
            // An input problem (exit 1), not a usage one: the flags were right, the file or stream is empty.
            let source = contextFile.map { $0 == "-" ? "standard input" : $0 } ?? "standard input"
            throw InputError("\(source): the context is empty; give the text to find the answer in")
        }
        let answers: [Answer]
        do { answers = try answerer.answers(to: question ?? "", in: text, options: reading.answerOptions) } catch {
            throw QAReadingOptions.naming(error)
        }
        if json {
            Console.print(QAJSON.string(QAJSON.AnswerList(answers: answers.map(QAJSON.Answer.init))))
        } else if answers.isEmpty {
            Console.print("(no answer)")
        } else {
            for answer in answers {
                let shown = answer.isNoAnswer ? "(no answer)" : "\"\(answer.text)\""
                Console.print(String(format: "%.4f  ", answer.score) + "\(shown)  " + SpanNotation.text(start: answer.start, end: answer.end))
            }
        }
    }

    private func answerFromIndex(at path: String) throws {
        let documentIndex = try IndexLocation.open(path, needsEmbedder: true, readOnly: true)
        let answerer = try modelOptions.load()
        try reading.check(against: answerer)
        var options = reading.answerOptions
        options.passageSearch = nil
        let question = question ?? ""
        // Retrieval is hybrid when the index has vectors: the question is embedded here, so that a
        // zero vector (no term the model knows: no passage found by meaning) can be reported.
        let embedding = documentIndex.canSearchVectors ? try documentIndex.embedQueries([question]).first : nil
        let zeroVector = embedding.map(VectorMatrix.isZero) ?? false
        let answers: [CollectionAnswer]
        do {
            answers = try answerer.answers(to: question, in: documentIndex, passages: reading.passages ?? 5, embedding: embedding,
                                           options: options)
        } catch {
            throw QAReadingOptions.naming(error)
        }
        if json {
            Console.print(QAJSON.string(QAJSON.CollectionAnswerList(zeroQueryVector: zeroVector ? true : nil,
                                                                    answers: answers.map(QAJSON.CollectionAnswer.init))))
            return
        }
        if zeroVector { Console.log(IndexSearchCommand.zeroVectorNote(query: question, mode: .hybrid)) }
        if answers.isEmpty {
            Console.print("(no answer)")
        } else {
            for answer in answers {
                Console.print(String(format: "%.4f  ", answer.answer.score) + "\"\(answer.answer.text)\"  \(answer.documentID) " + SpanNotation.text(start: answer.start, end: answer.end))
            }
        }
    }

    private func readContext() throws -> String {
        if let context { return context }
        let data = try Console.readData(path: contextFile)
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("\(contextFile ?? "standard input"): not valid UTF-8")
        }
        return text
    }
}
