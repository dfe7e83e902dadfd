import NLUCore
import NLUTransformers

/// One micro-batch of the joint intent + slot model: the token ids, each sequence's intent, and the
/// words whose tags it learns: the position of each word's first word piece and the word's tag
/// index, in word order (JointBERT's alignment: the other pieces of a word carry no label), and, for a
/// model whose slot head reads them, the same words' shapes (``WordShape``).
///
///     let batch = try JointIntentSlotBatch(encoderBatch: try EncoderBatch(tokenIDs: ids, padID: 0),
///                                          intents: [2], wordPositions: [[1, 3]], wordTags: [[1, 0]])
public struct JointIntentSlotBatch: Sendable, Equatable {
    /// The token ids and attention mask.
    public var encoderBatch: EncoderBatch
    /// One intent index per sequence.
    public var intents: [Int32]
    /// Per sequence, the position of each word's first piece, rising.
    public var wordPositions: [[Int]]
    /// Per sequence, the tag index of each word of ``wordPositions``.
    public var wordTags: [[Int]]
    /// Per sequence, the shape of each word of ``wordPositions``; nil for a slot head without shapes.
    public var wordShapes: [[WordShape]]?

    /// The words of every sequence together.
    public var wordCount: Int { wordPositions.reduce(0) { $0 + $1.count } }

    /// A batch from its parts.
    /// - Throws: `ModelError` when the counts disagree with the batch size, a sequence's positions and
    ///   tags (or shapes) differ in number, or a position is not an attended position of its sequence or does not rise.
    public init(encoderBatch: EncoderBatch, intents: [Int32], wordPositions: [[Int]], wordTags: [[Int]],
                wordShapes: [[WordShape]]? = nil) throws {
        let size = encoderBatch.batchSize, length = encoderBatch.sequenceLength
        guard intents.count == size, wordPositions.count == size, wordTags.count == size else {
            throw ModelError.invalidFeatureValue("intents", reason: "\(intents.count) intents, \(wordPositions.count) position lists and "
                                                 + "\(wordTags.count) tag lists for a batch of \(size) sequences")
        }
        if let wordShapes, wordShapes.map(\.count) != wordPositions.map(\.count) {
            throw ModelError.invalidFeatureValue("wordShapes", reason: "\(wordShapes.map(\.count)) shapes for \(wordPositions.map(\.count)) word positions")
        }
        for (row, (positions, tags)) in zip(wordPositions, wordTags).enumerated() {
            guard positions.count == tags.count else {
                throw ModelError.invalidFeatureValue("wordTags", reason: "sequence \(row): \(positions.count) word positions but \(tags.count) tags")
            }
            for (index, position) in positions.enumerated() {
                guard (0..<length).contains(position), encoderBatch.attentionMask[row * length + position] != 0,
                      index == 0 || position > positions[index - 1] else {
                    throw ModelError.invalidFeatureValue("wordPositions", reason: "sequence \(row): position \(position) is not a rising, "
                                                         + "attended position of its \(length)")
                }
            }
        }
        self.encoderBatch = encoderBatch
        self.intents = intents
        self.wordPositions = wordPositions
        self.wordTags = wordTags
        self.wordShapes = wordShapes
    }
}
