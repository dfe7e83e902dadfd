import Foundation
import NLUTestSupport
import Testing
@testable import NLUQuestionAnswering

/// `AnswerOptions.maxWindows` bounds the encoder work one call may ask for: the windows are counted
/// after tokenizing (cheap) and before the model runs (not), so a server can refuse a huge context
/// without paying for it.
@Suite struct WindowLimitTests {
    static let question = "Who went to Paris?"
    /// Twenty sentences: several windows of 64 tokens.
    static let context = Array(repeating: "Alice went to Paris on Monday with her friend Bob, and they took the train from London.",
                               count: 20).joined(separator: " ")

    /// The windows the tokenizer cuts, counted here without the answerer (its pipeline defaults).
    static func windows(_ qa: QuestionAnswerer, maxSequenceLength: Int) throws -> Int {
        try qa.tokenizer.encodePair(question, context, maxLength: maxSequenceLength, stride: min(maxSequenceLength / 2, 128)).count
    }

    @Test func moreWindowsThanTheLimitThrowsWithTheCountAndTheLimit() throws {
        let qa = try QuestionAnswerer(modelDirectory: QAFixtures.model("bert-tiny"))
        let count = try Self.windows(qa, maxSequenceLength: 64)
        #expect(count > 3)
        let options = AnswerOptions(maxSequenceLength: 64, maxWindows: count - 1)
        #expect(throws: QuestionAnsweringError.tooManyWindows(count: count, limit: count - 1, windowLength: 64)) {
            try qa.answers(to: Self.question, in: Self.context, options: options)
        }
        // At the limit the same call answers as with no limit.
        let atLimit = try qa.answers(to: Self.question, in: Self.context, options: AnswerOptions(maxSequenceLength: 64, maxWindows: count))
        #expect(atLimit == (try qa.answers(to: Self.question, in: Self.context, options: AnswerOptions(maxSequenceLength: 64))))
    }

    /// Weights that overflow make every model call fail: the limit's error proves the model never ran.
    @Test func theLimitIsCheckedBeforeTheModelRuns() throws {
        let copy = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(copy) }
        try SafeTensorsPatch.set("qa_outputs.weight", in: copy.appendingPathComponent("model.safetensors"), to: 3e38, count: nil)
        let qa = try QuestionAnswerer(modelDirectory: copy)
        let error = #expect(throws: QuestionAnsweringError.self) {
            try qa.answers(to: Self.question, in: Self.context, options: AnswerOptions(maxSequenceLength: 64, maxWindows: 1))
        }
        guard case .tooManyWindows? = error else {
            Issue.record("expected tooManyWindows, got \(String(describing: error))")
            return
        }
    }

    @Test func aLimitBelowOneIsAnInvalidOption() throws {
        let qa = try QuestionAnswerer(modelDirectory: QAFixtures.model("bert-tiny"))
        #expect(throws: QuestionAnsweringError.invalidOption(name: "max windows", reason: "must be at least 1, got 0")) {
            try qa.validate(AnswerOptions(maxWindows: 0))
        }
    }
}
