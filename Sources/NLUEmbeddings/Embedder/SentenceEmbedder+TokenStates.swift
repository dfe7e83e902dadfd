import NLUCore

extension SentenceEmbedder {
    /// One encoder pass over `tokenIDs` (special tokens included, at most ``maxSequenceLength``):
    /// the pooled sentence vector, unnormalized (what a head trained on the pooling reads), and the
    /// last hidden states at `positions`, one row of the encoder's hidden size each. The joint
    /// intent + slot model reads both from the same pass: the intent from the pooled vector, each
    /// word's tag from its first piece's state.
    ///
    ///     let ids = embedder.tokenIDs("book a table for 4")
    ///     let (pooled, states) = try embedder.pooledAndTokenStates(tokenIDs: ids, positions: [1, 2, 3, 4, 5])
    ///     states[4].count                                                  // the hidden size
    /// - Throws: ``SentenceEmbedderError`` for a position outside the sequence; the encoder's error
    ///   for a sequence it refuses (empty, too long, an id outside its vocabulary).
    public func pooledAndTokenStates(tokenIDs: [Int32], positions: [Int]) throws -> (pooled: [Float], states: [[Float]]) {
        if let outside = positions.first(where: { !(0..<tokenIDs.count).contains($0) }) {
            throw SentenceEmbedderError.invalidOption(name: "positions", value: "\(outside)", expected: "a position of the \(tokenIDs.count) tokens")
        }
        let hidden = encoder.configuration.hiddenSize
        var states: [[Float]] = []
        states.reserveCapacity(positions.count)
        let pooled = try embedBatch([tokenIDs], normalize: false) { _, tokens in
            for position in positions { states.append(Array(UnsafeBufferPointer(start: tokens + position * hidden, count: hidden))) }
        }
        return (pooled[0], states)
    }
}
