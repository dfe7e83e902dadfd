import Foundation
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString).json")
        try Data(#"{"data": [{"paragraphs": [{"qas": []}]}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: CheckpointError.self) { try SQuADDataset(contentsOf: url) }
        #expect("\(error!)".contains("context"))
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

    @Test func bm25RanksTheMatchingParagraphFirst() {
        let documents = ["The fox jumped over the dog.", "Paris is the capital of France.", "The dog slept all day."]
        let scores = PassageSearch.bm25(query: "What is the capital of France?", documents: documents)
        #expect(scores[1] > scores[0] && scores[1] > scores[2])
        // Hand-computed: N=3, "capital" and "france" each in 1 doc: idf = ln(1 + 2.5/1.5); "the" in all 3: ln(1 + 0.5/3.5);
        // "is" and "of" in 1 doc. Document 1 has 6 terms, average 5.667.
        let idfRare = log(1 + 2.5 / 1.5), idfThe = log(1 + 0.5 / 3.5)
        let norm = 1.5 * (1 - 0.75 + 0.75 * 6 / (17.0 / 3))
        let expected = (4 * idfRare + idfThe) * 2.5 / (1 + norm)
        #expect(abs(scores[1] - expected) < 1e-9)
        let chosen = PassageSearch.passages(of: documents.joined(separator: "\n\n"), for: "capital of France", limit: 1)
        #expect(chosen.map(\.text) == ["Paris is the capital of France."])
    }
}
