import NLUCore

/// Token sequences for one encoder pass: `batchSize` rows of `sequenceLength` token ids, right-padded,
/// with token types and an attention mask (1 for real tokens, 0 for padding), all row-major.
///
///     let batch = try EncoderBatch(tokenIDs: [[2, 17, 3], [2, 3]], padID: 0)
///     print(batch.sequenceLength)   // 3: no padding beyond the longest sequence
public struct EncoderBatch: Sendable, Equatable {
    /// Number of sequences.
    public var batchSize: Int
    /// Positions per sequence (the longest sequence; shorter ones are padded).
    public var sequenceLength: Int
    /// Token ids, row-major [batchSize × sequenceLength].
    public var tokenIDs: [Int32]
    /// Token types (0 question, 1 context), row-major.
    public var tokenTypeIDs: [Int32]
    /// 1 for real tokens, 0 for padding, row-major.
    public var attentionMask: [Int32]

    /// A batch from row-major arrays of `batchSize × sequenceLength` elements.
    public init(batchSize: Int, sequenceLength: Int, tokenIDs: [Int32], tokenTypeIDs: [Int32]? = nil,
                attentionMask: [Int32]? = nil) throws {
        let count = batchSize * sequenceLength
        guard batchSize >= 0, sequenceLength >= 0, tokenIDs.count == count else {
            throw ModelError.invalidFeatureValue("wordIDs", reason: "expected \(count) ids for shape [\(batchSize), \(sequenceLength)], got \(tokenIDs.count)")
        }
        if let tokenTypeIDs, tokenTypeIDs.count != count {
            throw ModelError.invalidFeatureValue("wordTypes", reason: "expected \(count) values, got \(tokenTypeIDs.count)")
        }
        if let attentionMask, attentionMask.count != count {
            throw ModelError.invalidFeatureValue("attentionMask", reason: "expected \(count) values, got \(attentionMask.count)")
        }
        self.batchSize = batchSize
        self.sequenceLength = sequenceLength
        self.tokenIDs = tokenIDs
        self.tokenTypeIDs = tokenTypeIDs ?? [Int32](repeating: 0, count: count)
        self.attentionMask = attentionMask ?? [Int32](repeating: 1, count: count)
    }

    /// Sequences of different lengths, right-padded with `padID` to the longest one.
    public init(tokenIDs: [[Int32]], tokenTypeIDs: [[Int32]]? = nil, padID: Int32) throws {
        let length = tokenIDs.map(\.count).max() ?? 0
        var ids: [Int32] = [], types: [Int32] = [], mask: [Int32] = []
        for (row, sequence) in tokenIDs.enumerated() {
            let padding = length - sequence.count
            ids += sequence + [Int32](repeating: padID, count: padding)
            let rowTypes = tokenTypeIDs.map { $0[row] } ?? [Int32](repeating: 0, count: sequence.count)
            guard rowTypes.count == sequence.count else {
                throw ModelError.invalidFeatureValue("wordTypes", reason: "row \(row) has \(rowTypes.count) types for \(sequence.count) ids")
            }
            types += rowTypes + [Int32](repeating: 0, count: padding)
            mask += [Int32](repeating: 1, count: sequence.count) + [Int32](repeating: 0, count: padding)
        }
        try self.init(batchSize: tokenIDs.count, sequenceLength: length, tokenIDs: ids,
                      tokenTypeIDs: types, attentionMask: mask)
    }

    /// For each row, the number of positions up to and including its last attended token.
    var attendedLengths: [Int] {
        (0..<batchSize).map { row in
            let base = row * sequenceLength
            var length = sequenceLength
            while length > 0 && attentionMask[base + length - 1] == 0 { length -= 1 }
            return length
        }
    }
}
