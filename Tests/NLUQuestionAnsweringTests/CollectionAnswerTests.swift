import Foundation
import NLUSearch
import Testing
@testable import NLUQuestionAnswering

/// QA over a document index: retrieval, then the reader on each retrieved chunk.
@Suite struct CollectionAnswerTests {
    static let documents = [
        ("fox", "The quick brown fox jumps over the lethargic dog. The dog did not move at all that day."),
        ("paris", "Paris is the capital of France. It lies on the Seine and has about two million inhabitants."),
        ("library", "The library opens at nine in the morning and closes at six in the evening on weekdays."),
    ]

    @Test func answersComeFromRetrievedChunksWithDocumentOffsets() throws {
        let qa = try QuestionAnswerer(modelDirectory: QAFixtures.model("bert-tiny"))
        let index = try DocumentIndex(inMemoryWith: nil, chunking: try ChunkingOptions(size: 10, overlap: 3))
        try index.add(Self.documents.map { try IndexDocument(id: $0.0, text: $0.1) })
        var options = AnswerOptions()
        options.topK = 3
        let question = "When does the library open?"
        let answers = try qa.answers(to: question, in: index, passages: 2, options: options)
        #expect(!answers.isEmpty && answers.count <= 3)

        // The reference: the same reader on the two chunks keyword search returns, read one by one.
        let passages = try index.search(question, options: SearchOptions(k: 2, mode: .keyword))
        var expected: [(String, Answer, Int)] = []
        for passage in passages {
            for answer in try qa.answers(to: question, in: passage.text, options: options) where !answer.isNoAnswer {
                expected.append((passage.documentID, answer, passage.start))
            }
        }
        expected.sort { $0.1.score > $1.1.score }
        for (found, reference) in zip(answers, expected) {
            #expect(found.documentID == reference.0)
            #expect(found.answer.text == reference.1.text)
            #expect(abs(found.answer.score - reference.1.score) < 1e-6)
            #expect(found.start == reference.2 + reference.1.start)
            let text = try #require(Self.documents.first { $0.0 == found.documentID }?.1)
            let scalars = Array(text.unicodeScalars)
            #expect(String(String.UnicodeScalarView(scalars[found.start..<found.end])) == found.answer.text)
        }
        #expect(passages.first?.documentID == "library")
    }

    @Test func passagesOutOfRangeAreRefused() throws {
        let qa = try QuestionAnswerer(modelDirectory: QAFixtures.model("bert-tiny"))
        let index = try DocumentIndex(inMemoryWith: nil)
        #expect(throws: SearchError.self) { try qa.answers(to: "What?", in: index, passages: 0) }
        #expect(try qa.answers(to: "What?", in: index).isEmpty)
    }
}
