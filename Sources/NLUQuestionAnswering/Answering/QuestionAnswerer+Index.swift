import NLUSearch

/// An answer found in a document of a ``DocumentIndex``: the span, its document and where it is
/// in that document.
public struct CollectionAnswer: Sendable, Equatable {
    /// The answer as the reader model gave it; its offsets and range are within `passage`.
    public var answer: Answer
    public var documentID: String
    /// Unicode-scalar offsets of the answer in the whole document.
    public var start: Int
    public var end: Int
    /// The retrieved chunk the answer was read from.
    public var passage: SearchResult
}

extension QuestionAnswerer {
    /// Answers a question over a collection: retrieves the `passages` best chunks of `index`
    /// (hybrid when the index was opened with its embedder, keyword otherwise), reads each with the
    /// QA model (in one batch), and returns the best `options.topK` answers across them, best first,
    /// with document ids and offsets into the documents. Any backend: the SQLite file or PostgreSQL.
    ///
    ///     let index = try DocumentIndex(at: url, embedder: embedder)
    ///     let best = try qa.answers(to: "When are invoices sent?", in: index).first
    ///     print(best?.answer.text, best?.documentID, best?.start)
    ///
    /// - Parameter embedding: the question's vector when the caller has computed it already
    ///   (``SearchableIndex/embedQueries(_:)``: to tell the user that a zero vector finds nothing by
    ///   meaning, ``VectorMatrix/isZero(_:)``); otherwise the index's embedder embeds the question.
    /// - Throws: ``SearchError/invalidArgument(_:)`` when `passages` is not in 1...100.
    public func answers(to question: String, in index: any SearchableIndex, passages: Int = 5, mode: SearchMode? = nil,
                        embedding: [Float]? = nil, options: AnswerOptions = .init()) throws -> [CollectionAnswer] {
        guard (1...100).contains(passages) else {
            throw SearchError.invalidArgument("passages must be in 1...100, got \(passages)")
        }
        let retrieved = try index.search(question, embedding: embedding, options: SearchOptions(
            k: passages, mode: mode ?? (index.canSearchVectors ? .hybrid : .keyword)))
        guard !retrieved.isEmpty else { return [] }
        let read = try answers(to: retrieved.map { (question: question, document: $0.text) }, options: options)
        var found: [CollectionAnswer] = []
        for (passage, answers) in zip(retrieved, read) {
            for answer in answers where !answer.isNoAnswer {
                found.append(CollectionAnswer(answer: answer, documentID: passage.documentID,
                                              start: passage.start + answer.start, end: passage.start + answer.end, passage: passage))
            }
        }
        // Best score first; equal scores go to the better-retrieved passage (stable sort).
        return Array(found.enumerated().sorted { a, b in
            a.element.answer.score != b.element.answer.score ? a.element.answer.score > b.element.answer.score : a.offset < b.offset
        }.map(\.element).prefix(options.topK))
    }
}
