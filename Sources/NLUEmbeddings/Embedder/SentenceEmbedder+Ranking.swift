/// One text of a collection ranked against a query.
public struct SimilarityMatch: Sendable, Equatable {
    /// The text's position in the collection (0-based).
    public var index: Int
    /// The text.
    public var text: String
    /// Cosine similarity of the text's embedding with the query's.
    public var score: Float

    public init(index: Int, text: String, score: Float) {
        self.index = index
        self.text = text
        self.score = score
    }
}

extension SentenceEmbedder {
    /// The `top` texts most similar to `query` by cosine of their embeddings, best first (ties keep
    /// input order). Texts are embedded in sorted batches and streamed: memory holds `top` matches,
    /// not every embedding.
    ///
    ///     let best = try embedder.nearest(to: "How do I reset my password?", in: faqQuestions, top: 3)
    ///     print(best[0].text, best[0].score)
    /// - Throws: ``SentenceEmbedderError/invalidOption(name:value:expected:)`` for `top` outside 1...1_000_000.
    public func nearest<Texts: Sequence>(to query: String, in texts: Texts, top: Int,
                                         options: EmbeddingOptions = .init()) throws -> [SimilarityMatch]
    where Texts.Element == String {
        guard (1...1_000_000).contains(top) else {
            throw SentenceEmbedderError.invalidOption(name: "top", value: String(top), expected: "1...1000000")
        }
        let queryVector = try embed(query, normalize: options.normalize)
        var best: [SimilarityMatch] = []
        var index = 0
        // The texts are walked twice in step (here and inside embed), so hold each window's texts.
        var pending: [String] = []
        var iterator = texts.makeIterator()
        func flush() throws {
            var position = 0
            try embed(pending, options: options) { vector in
                let match = SimilarityMatch(index: index, text: pending[position], score: Self.similarity(queryVector, vector))
                index += 1
                position += 1
                // Insert after every match scoring at least as high: ties keep input order.
                if best.count < top || match.score > best[best.count - 1].score {
                    let slot = best.firstIndex { $0.score < match.score } ?? best.count
                    best.insert(match, at: slot)
                    if best.count > top { best.removeLast() }
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
        while let text = iterator.next() {
            pending.append(text)
            if pending.count == options.sortWindow { try flush() }
        }
        if !pending.isEmpty { try flush() }
        return best
    }
}
