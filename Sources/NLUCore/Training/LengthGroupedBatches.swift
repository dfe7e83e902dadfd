/// The order in which a training epoch visits its examples so that each batch holds examples of similar
/// lengths, and little of every batch is padding: `transformers`' `group_by_length` (its
/// `get_length_grouped_indices`), with our seeded shuffle in place of `torch.randperm`.
///
/// The examples are shuffled; cut into mega-batches of `megaBatchMultiple × batchSize` (by default 50, or
/// fewer so that there are four mega-batches, at least 1); each mega-batch sorted longest first (a stable
/// sort: equal lengths keep their shuffled order); the longest example of all swapped to the very front,
/// so the largest batch runs first and a run that does not fit fails at once rather than hours in. The
/// batches are consecutive runs of `batchSize` of that order (the last may be shorter).
///
///     var random = SplitMix64(seed: 42)
///     let batches = LengthGroupedBatches(lengths: [5, 31, 7, 30], batchSize: 2, using: &random).batches
///     // [[1, 3], [2, 0]] or the like: 31 and 30 together, 7 and 5 together
public struct LengthGroupedBatches: Sendable, Equatable {
    /// Every example index once, in visiting order.
    public var order: [Int]
    /// The examples per batch.
    public var batchSize: Int

    /// Groups `lengths` (one per example) after shuffling them with `random`.
    /// - Precondition: `batchSize` ≥ 1 (callers check it with their option's name).
    public init(lengths: [Int], batchSize: Int, megaBatchMultiple: Int? = nil, using random: inout some RandomNumberGenerator) {
        var permutation = Array(lengths.indices)
        permutation.shuffle(using: &random)
        self.init(lengths: lengths, batchSize: batchSize, megaBatchMultiple: megaBatchMultiple, permutation: permutation)
    }

    /// Groups `lengths` visiting them first in `permutation` (a permutation of their indices), the step
    /// `transformers` takes from `torch.randperm`.
    public init(lengths: [Int], batchSize: Int, megaBatchMultiple: Int? = nil, permutation: [Int]) {
        precondition(batchSize >= 1, "batch size must be at least 1")
        let multiple = max(1, megaBatchMultiple ?? min(lengths.count / (batchSize * 4), 50))
        let megaBatchSize = multiple * batchSize
        var megaBatches = stride(from: 0, to: permutation.count, by: megaBatchSize).map { start in
            // Swift's sort is stable since 5.0, as Python's `sorted` is: ties keep the shuffled order.
            permutation[start..<min(start + megaBatchSize, permutation.count)].sorted { lengths[$0] > lengths[$1] }
        }
        if let longest = megaBatches.indices.max(by: { (lengths[megaBatches[$0][0]], $1) < (lengths[megaBatches[$1][0]], $0) }) {
            // The first mega-batch of the greatest maximum, as `torch.argmax` picks the first of equal maxima.
            let first = megaBatches[0][0]
            megaBatches[0][0] = megaBatches[longest][0]
            megaBatches[longest][0] = first
        }
        order = megaBatches.flatMap { $0 }
        self.batchSize = batchSize
    }

    /// The batches: consecutive runs of ``batchSize`` example indices of ``order``.
    public var batches: [ArraySlice<Int>] {
        stride(from: 0, to: order.count, by: batchSize).map { order[$0..<min($0 + batchSize, order.count)] }
    }
}
