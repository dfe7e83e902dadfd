/// Splits a token-id stream into `batch` parallel streams and cuts them into windows of up to
/// `sequenceLength` steps, each predicting the next token (PyTorch word_language_model's
/// `batchify` + `get_batch`). The streams continue from one window to the next, so the RNN state is
/// carried across windows (truncated back-propagation through time).
///
///     let batches = TokenBatches(ids: ids, batchSize: 20, sequenceLength: 35)
///     for batch in batches { /* batch.inputs / batch.targets, [steps × 20] time-major */ }
public struct TokenBatches: Sequence, Sendable {
    /// Streams per batch (smaller than asked when the text is too short).
    public let batchSize: Int
    public let sequenceLength: Int
    /// Tokens per stream.
    public let streamLength: Int
    private let columns: [Int32]  // [streamLength, batchSize], time-major

    /// - Parameters: `ids` the whole text; the tail that does not fill every stream is dropped.
    public init(ids: [Int32], batchSize: Int, sequenceLength: Int) {
        // Every stream needs at least two tokens (one input, one target).
        let batch = Swift.max(1, Swift.min(batchSize, ids.count / 2))
        let length = ids.count / batch
        self.batchSize = batch
        self.sequenceLength = Swift.max(1, sequenceLength)
        self.streamLength = length
        var columns = [Int32](repeating: 0, count: length * batch)
        for stream in 0..<batch {
            for position in 0..<length { columns[position * batch + stream] = ids[stream * length + position] }
        }
        self.columns = columns
    }

    /// The number of windows.
    public var count: Int {
        streamLength < 2 ? 0 : (streamLength - 1 + sequenceLength - 1) / sequenceLength
    }

    /// The number of predicted tokens over all windows.
    public var tokenCount: Int { Swift.max(0, streamLength - 1) * batchSize }

    public func makeIterator() -> AnyIterator<LanguageModelBatch> {
        var start = 0
        return AnyIterator {
            guard start < streamLength - 1 else { return nil }
            let steps = Swift.min(sequenceLength, streamLength - 1 - start)
            let inputs = Array(columns[(start * batchSize)..<((start + steps) * batchSize)])
            let targets = Array(columns[((start + 1) * batchSize)..<((start + 1 + steps) * batchSize)])
            start += steps
            return LanguageModelBatch(steps: steps, batch: batchSize, inputs: inputs, targets: targets)
        }
    }
}
