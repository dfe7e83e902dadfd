import Foundation
import NLUTestSupport
import Testing
@testable import NLUQuestionAnswering

/// The official SQuAD normalization and metrics; expected values from the official v2.0 script's
/// functions run in Python on the same strings.
@Suite struct SQuADMetricsTests {
    @Test(arguments: [
        ("The  Quick, brown fox!", "quick brown fox"),
        ("An apple a day", "apple day"),
        ("théâtre the€ anne", "théâtre € anne"),
        ("Zürich's  «café»\tTHE end", "zürichs «café» end"),
        ("a", ""),
        ("the-end of an_era", "theend of anera"),
    ])
    func normalizationMatchesTheOfficialScript(input: String, expected: String) {
        #expect(SQuADMetrics.normalize(input) == expected)
    }

    @Test func f1AndExactMatchMatchTheOfficialScript() {
        #expect(abs(SQuADMetrics.f1(prediction: "brown fox", gold: ["quick brown fox"]) - 0.8) < 1e-12)
        #expect(abs(SQuADMetrics.f1(prediction: "cat on mat mat", gold: ["the cat sat on the mat"]) - 0.75) < 1e-12)
        #expect(SQuADMetrics.f1(prediction: "something", gold: []) == 0)
        #expect(SQuADMetrics.f1(prediction: "", gold: []) == 1)
        #expect(SQuADMetrics.exactMatch(prediction: "a dog", gold: ["Dog"]) == 1)
        #expect(SQuADMetrics.exactMatch(prediction: "dogs", gold: ["Dog", "the cat"]) == 0)
        // The best gold answer counts.
        #expect(SQuADMetrics.f1(prediction: "dog", gold: ["the lethargic dog", "dog"]) == 1)
    }

    @Test func datasetReadsVersion2WithImpossibleQuestions() throws {
        let dataset = try SQuADDataset(contentsOf: QAFixtures.directory.appendingPathComponent("squad-v2.json"))
        #expect(dataset.questions.count == 6)
        #expect(dataset.isVersion2)
        #expect(dataset.questions.filter(\.isImpossible).map(\.id) == ["curie-2"])
        #expect(dataset.questions[1].answers == ["the lethargic dog", "dog"])
    }

    @Test func malformedSQuADFileNamesTheMissingField() throws {
        let url = TestScratch.file("squad", extension: "json")
        try Data(#"{"data": [{"paragraphs": [{"qas": []}]}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: CheckpointError.self) { try SQuADDataset(contentsOf: url) }
        #expect("\(error!)".contains("context"))
    }

    /// A question or context of whitespace only is refused at load, naming the file and the question
    /// (the fuzz harness found `qa evaluate` failing at that question without naming the file).
    @Test func anEmptyQuestionOrContextNamesTheFile() throws {
        for (question, context, expected) in [("  ", "The fox.", "the question is empty"), ("Who?", "\n", "its context is empty")] {
            let json = #"{"data": [{"paragraphs": [{"context": "\#(context == "\n" ? "\\n" : context)", "qas": [{"id": "q1", "question": "\#(question)", "answers": []}]}]}]}"#
            let error = #expect(throws: CheckpointError.self) { try SQuADDataset(data: Data(json.utf8), file: "dev.json") }
            #expect(error == .unreadableFile(path: "dev.json", reason: "question 'q1': \(expected)"), "\(String(describing: error))")
        }
    }
}

/// BM25 paragraph search for long documents.
@Suite struct PassageSearchTests {
    @Test func paragraphsSplitOnBlankLinesWithScalarOffsets() {
        let text = "First café paragraph.\n\n  \nSecond one\nstill second.\n\nThird."
        let passages = PassageSearch.split(text)
        #expect(passages.map(\.text) == ["First café paragraph.", "Second one\nstill second.", "Third."])
        for passage in passages {
            let scalars = Array(text.unicodeScalars)[passage.scalarOffset..<(passage.scalarOffset + passage.text.unicodeScalars.count)]
            #expect(String(String.UnicodeScalarView(scalars)) == passage.text)
        }
    }

    @Test func theBestMatchingParagraphIsChosen() {
        // The ranking itself (BM25 against a hand-computed score) is tested in NLUSearchTests.
        let documents = ["The fox jumped over the dog.", "Paris is the capital of France.", "The dog slept all day."]
        let chosen = PassageSearch.passages(of: documents.joined(separator: "\n\n"), for: "capital of France", limit: 1)
        #expect(chosen.map(\.text) == ["Paris is the capital of France."])
        let two = PassageSearch.passages(of: documents.joined(separator: "\n\n"), for: "the dog", limit: 2)
        #expect(two.map(\.text) == ["The fox jumped over the dog.", "The dog slept all day."])
    }
}
