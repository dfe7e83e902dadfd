/// Position ids as RoBERTa (and MPNet, XLM-R) make them from the token ids: a token equal to the
/// padding index gets that index as its position, every other token `paddingIndex + 1 + (non-pad
/// tokens before it)`, so the position table's first `paddingIndex + 1` rows are never used by text
/// (`create_position_ids_from_input_ids` in `transformers`).
///
///     // padding index 1, ids [[0, 17, 2], [0, 2, 1]]
///     PaddingOffsetPositions.positionIDs(batch, paddingIndex: 1)   // [2, 3, 4, 2, 3, 1]
enum PaddingOffsetPositions {
    /// The position id of each of `batch`'s tokens, row-major like its token ids.
    static func positionIDs(_ batch: EncoderBatch, paddingIndex: Int) -> [Int] {
        var positions = [Int](repeating: paddingIndex, count: batch.tokenIDs.count)
        for row in 0..<batch.batchSize {
            var count = 0
            for index in (row * batch.sequenceLength)..<((row + 1) * batch.sequenceLength)
            where Int(batch.tokenIDs[index]) != paddingIndex {
                count += 1
                positions[index] = paddingIndex + count
            }
        }
        return positions
    }
}
