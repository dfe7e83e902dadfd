/// The batches of an epoch in which no text appears twice, so that the ranking loss never scores an
/// anchor against a copy of its own positive as a negative: sentence-transformers'
/// `NoDuplicatesBatchSampler` (5.1.2), with our seeded shuffle in place of `torch.randperm`.
///
/// The examples are shuffled; then each batch is filled by walking the examples not yet used in that
/// order and taking each one none of whose texts is already in the batch, until the batch is full or
/// the walk ends (the last batches may be smaller). Every example is used exactly once.
///
///     var random = SplitMix64(seed: 42)
///     let batches = NoDuplicatesBatches(texts: [["a", "b"], ["a", "c"], ["d", "e"]], batchSize: 2, using: &random).batches
///     // e.g. [[2, 0], [1]]: examples 0 and 1 share "a"
public struct NoDuplicatesBatches: Sendable, Equatable {
    /// Example indices, batch by batch.
    public var batches: [[Int]]

    /// Batches of at most `batchSize` examples (≥ 1); `texts[i]` holds example `i`'s texts.
    public init(texts: [[String]], batchSize: Int, using random: inout some RandomNumberGenerator) {
        precondition(batchSize >= 1, "batch size must be at least 1")
        var remaining = Array(texts.indices)
        remaining.shuffle(using: &random)
        batches = []
        while !remaining.isEmpty {
            var seen: Set<String> = [], batch: [Int] = [], used: Set<Int> = []
            for index in remaining {
                let values = Set(texts[index])
                guard seen.isDisjoint(with: values) else { continue }
                batch.append(index)
                used.insert(index)
                if batch.count == batchSize { break }
                seen.formUnion(values)
            }
            batches.append(batch)
            remaining.removeAll { used.contains($0) }
        }
    }
}
