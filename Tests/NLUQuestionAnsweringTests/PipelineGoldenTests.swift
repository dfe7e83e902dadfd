import Foundation
import Testing
@testable import NLUQuestionAnswering
import NLUText

/// Answers against `transformers` 4.57.6 `pipeline("question-answering")` on the same checkpoints,
/// questions, contexts and options (scripts/fixtures/qa.py): the same answer texts, starts and ends
/// (Unicode-scalar offsets), in the same order, scores within 1e-4 relative.
@Suite struct PipelineGoldenTests {
    static let cases = QAFixtures.goldens.pipeline
    static let answerers: [String: QuestionAnswerer] = {
        var result: [String: QuestionAnswerer] = [:]
        for name in Set(cases.map(\.model)) {
            result[name] = try? QuestionAnswerer(modelDirectory: QAFixtures.model(name))
        }
        return result
    }()

    @Test(arguments: cases.indices)
    func answersMatchThePipeline(index: Int) throws {
        let item = Self.cases[index]
        let answerer = try #require(Self.answerers[item.model])
        let label = "\(item.model) \(item.question) \(item.options)"
        let answers = try answerer.answers(to: item.question, in: item.context, options: item.options.answerOptions)
        #expect(answers.map(\.text) == item.answers.map(\.answer), "\(label)")
        #expect(answers.map(\.start) == item.answers.map(\.start), "\(label)")
        #expect(answers.map(\.end) == item.answers.map(\.end), "\(label)")
        for (answer, expected) in zip(answers, item.answers) {
            #expect(abs(answer.score - expected.score) <= 1e-4 * max(expected.score, 1e-12), "\(label): \(answer.score) vs \(expected.score)")
            #expect(String(item.context[answer.range]) == answer.text)
        }
    }

    @Test func multiWindowDocumentsUseOneBatchedPass() throws {
        let item = try #require(Self.cases.first { $0.windows >= 3 && $0.model == "bert-tiny" })
        let answerer = try #require(Self.answerers["bert-tiny"])
        let settings = try WindowSettings(options: item.options.answerOptions, defaultLength: answerer.defaultMaxSequenceLength,
                                          positions: 512)
        let windows = try answerer.tokenizer.encodePair(item.question, item.context, maxLength: settings.maxSequenceLength,
                                                        stride: settings.stride)
        #expect(windows.count == item.windows)
        // Windows batched together give the logits each window gets alone.
        var batched = answerer
        batched.maxWindowsPerPass = windows.count
        let together = try batched.windowLogits(windows)
        var single = answerer
        single.maxWindowsPerPass = 1
        let alone = try single.windowLogits(windows)
        for (a, b) in zip(together, alone) {
            #expect(zip(a.start, b.start).allSatisfy { abs($0 - $1) < 1e-4 })
            #expect(zip(a.end, b.end).allSatisfy { abs($0 - $1) < 1e-4 })
        }
    }

    /// A document of 2³¹ bytes is refused before the tokenizer, whose 32-bit offsets it would overflow.
    @Test func aDocumentTooLongForTheTokenizerIsAnError() throws {
        let answerer = try #require(Self.answerers["bert-tiny"])
        // Filled as bytes: String(repeating:count:) takes about 40 s for 2 GiB in a debug build.
        let document = String(unsafeUninitializedCapacity: 1 << 31) { $0.initialize(repeating: UInt8(ascii: "a")); return $0.count }
        #expect(throws: BertTokenizerError.textTooLong(name: "the document", bytes: 1 << 31, limit: Int(Int32.max))) {
            try answerer.answers(to: "Why?", in: document)
        }
    }

    @Test func emptyInputsAndBadOptionsAreErrors() throws {
        let answerer = try #require(Self.answerers["bert-tiny"])
        #expect(throws: QuestionAnsweringError.emptyQuestion) { try answerer.answers(to: "  ", in: "Some text.") }
        #expect(throws: QuestionAnsweringError.emptyDocument) { try answerer.answers(to: "Why?", in: "") }
        #expect(throws: QuestionAnsweringError.self) { try answerer.answers(to: "Why?", in: "Text.", options: AnswerOptions(topK: 0)) }
        #expect(throws: QuestionAnsweringError.self) {
            try answerer.answers(to: "Why?", in: "Text.", options: AnswerOptions(maxSequenceLength: 64, documentStride: 65))
        }
        #expect(throws: QuestionAnsweringError.self) {
            try answerer.answers(to: "Why?", in: "Text.", options: AnswerOptions(maxSequenceLength: 1000))
        }
        let longQuestion = Array(repeating: "who", count: 60).joined(separator: " ")
        let error = #expect(throws: QuestionAnsweringError.self) {
            try answerer.answers(to: longQuestion, in: "The fox.", options: AnswerOptions(maxSequenceLength: 48, documentStride: 8))
        }
        #expect("\(error!)".contains("too long"))
    }

    @Test func passageSearchReadsOnlyTheBestParagraphs() throws {
        let answerer = try #require(Self.answerers["bert-tiny"])
        let paragraphs = (0..<40).map { "Paragraph \($0) talks about the river and the village in 19\($0 % 10)0." }
        let target = "Marie Curie was a physicist and chemist who conducted pioneering research on radioactivity."
        let document = (paragraphs[..<25] + [target] + paragraphs[25...]).joined(separator: "\n\n")
        var options = AnswerOptions(passageSearch: PassageSearchOptions(maxPassages: 1))
        let answer = try #require(try answerer.answers(to: "What did Marie Curie research?", in: document, options: options).first)
        // The answer lies in the Curie paragraph, and its offsets point into the whole document.
        let start = try #require(document.range(of: target)).lowerBound
        #expect(answer.range.lowerBound >= start)
        #expect(String(document[answer.range]) == answer.text)
        // Reading that paragraph alone gives the same answer, shifted by its offset.
        options.passageSearch = nil
        let alone = try #require(try answerer.answers(to: "What did Marie Curie research?", in: target, options: options).first)
        #expect(alone.text == answer.text)
        #expect(alone.start + document.unicodeScalars[..<start].count == answer.start)
    }

    @Test func squadEvaluationMatchesTheOfficialScriptOnPipelinePredictions() throws {
        let dataset = try SQuADDataset(contentsOf: QAFixtures.directory.appendingPathComponent("squad-v2.json"))
        for golden in QAFixtures.goldens.squad {
            let answerer = try #require(Self.answerers[golden.model])
            let report = try SQuADEvaluation.evaluate(answerer, on: dataset)
            #expect(report.count == golden.count)
            #expect(abs(report.exactMatch - golden.exact) < 1e-9, "\(golden.model)")
            #expect(abs(report.f1 - golden.f1) < 1e-9, "\(golden.model)")
        }
    }
}
