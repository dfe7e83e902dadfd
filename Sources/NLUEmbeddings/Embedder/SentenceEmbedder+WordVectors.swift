import NLUCore

extension SentenceEmbedder {
    /// For each text, its sentence embedding (as ``embed(_:options:)`` computes it) and a contextual
    /// vector for each of its `words` (Unicode-scalar ranges in the text): the mean of the encoder's
    /// last hidden states over the word pieces that lie inside the word, from the same encoder pass.
    ///
    /// Mean, not the first piece: the vector then stands for the whole word however the vocabulary
    /// splits it, and a word our tokenizer keeps whole but BERT splits ("don't" → don ' t) gets all of
    /// its pieces; the first piece is what fine-tuned BERT taggers use, where training teaches it to
    /// speak for the word — a frozen encoder was not trained so. A word with no piece inside it (truncated away past
    /// ``maxSequenceLength``, or text the tokenizer drops) gets the mean of the pieces that overlap
    /// it, or zeros when none does.
    ///
    ///     let tokens = [0..<4, 5..<7, 8..<11, 12..<17]                       // "turn on the radio"
    ///     let result = try embedder.embedWithWordVectors(["turn on the radio"], words: [tokens])
    ///     result[0].words[3].count                                           // 384 (the hidden size)
    /// - Throws: ``SentenceEmbedderError`` for invalid options or `texts` and `words` of different counts.
    public func embedWithWordVectors(_ texts: [String], words: [[Range<Int>]], options: EmbeddingOptions = .init())
        throws -> [(sentence: [Float], words: [[Float]])] {
        try options.validate()
        guard texts.count == words.count else {
            throw SentenceEmbedderError.invalidOption(name: "words", value: "\(words.count) lists", expected: "one list of word ranges per text (\(texts.count))")
        }
        let pieces = texts.map(pieces(of:))
        let ids = pieces.map { [tokenizer.clsID] + $0.ids.prefix(maxSequenceLength - 2) + [tokenizer.sepID] }
        let hidden = encoder.configuration.hiddenSize
        var results = [(sentence: [Float], words: [[Float]])](repeating: ([], []), count: texts.count)
        let order = ids.indices.sorted { ids[$0].count > ids[$1].count || (ids[$0].count == ids[$1].count && $0 < $1) }
        for start in stride(from: 0, to: order.count, by: options.batchSize) {
            let members = Array(order[start..<min(start + options.batchSize, order.count)])
            var wordVectors = [[[Float]]](repeating: [], count: members.count)
            let sentences = try embedBatch(members.map { ids[$0] }, normalize: options.normalize ?? normalizesByDefault) { row, states in
                let member = members[row]
                // Piece p of the text is row p + 1 ([CLS] first); pieces past the truncation have no state.
                let offsets = pieces[member].offsets.prefix(ids[member].count - 2)
                wordVectors[row] = words[member].map { word in
                    var inside = offsets.indices.filter { offsets[$0].lowerBound >= word.lowerBound && offsets[$0].upperBound <= word.upperBound && !offsets[$0].isEmpty }
                    if inside.isEmpty { inside = offsets.indices.filter { offsets[$0].overlaps(word) } }
                    var vector = [Float](repeating: 0, count: hidden)
                    guard !inside.isEmpty else { return vector }
                    for p in inside {
                        let state = states + (p + 1) * hidden
                        for i in 0..<hidden { vector[i] += state[i] }
                    }
                    let scale = 1 / Float(inside.count)
                    for i in 0..<hidden { vector[i] *= scale }
                    return vector
                }
            }
            for (row, member) in members.enumerated() { results[member] = (sentences[row], wordVectors[row]) }
        }
        return results
    }
}
