import Foundation
import NLUCore

/// MPNet's position arithmetic, ported from `transformers` 4.57 `modeling_mpnet.py`: the
/// RoBERTa-style position ids of the embeddings and the T5-style bidirectional buckets of the
/// relative attention bias.
enum MPNetPositions {
    /// `MPNetEmbeddings.padding_idx`: fixed at 1 in `transformers` (not read from the config). Tokens
    /// with this id get this position, the others `padding_idx + 1 + (non-pad tokens before them)`.
    static let paddingIndex = 1
    /// The buckets `MPNetEncoder.compute_position_bias` looks up: its `num_buckets=32` default,
    /// which `transformers` never overrides with `relative_attention_num_buckets`.
    static let bucketCount = 32
    /// `relative_position_bucket`'s `max_distance`: distances beyond share the last bucket.
    static let maxDistance = 128

    /// The bucket of the key at `relative = key - query`: half the buckets for keys before the
    /// query, half for keys after; within each half, distances below a quarter of the buckets
    /// exact, then logarithmic up to `maxDistance`.
    static func bucket(relative: Int, bucketCount: Int = bucketCount, maxDistance: Int = maxDistance) -> Int {
        let half = bucketCount / 2
        var n = -relative
        var result = 0
        if n < 0 {
            result += half
            n = -n
        }
        let maxExact = half / 2
        if n < maxExact { return result + n }
        // transformers computes this in float32 then truncates; Double gives the same buckets for
        // every distance (checked against torch for |relative| ≤ 1000 by the MPNet fixture test).
        let large = maxExact + Int(log(Double(n) / Double(maxExact)) / log(Double(maxDistance) / Double(maxExact))
                                   * Double(half - maxExact))
        return result + min(large, half - 1)
    }

    /// The position id of each of `batch`'s tokens, row-major like its token ids.
    static func positionIDs(_ batch: EncoderBatch) -> [Int] {
        PaddingOffsetPositions.positionIDs(batch, paddingIndex: paddingIndex)
    }
}

/// The additive attention bias of a relative-position model for one sequence length `L`: per head,
/// the `2L - 1` values of the relative distances `-(L-1) … L-1`, in the layout
/// ``Kernels/multiHeadAttention`` takes (`values[h·(2L-1) + (key - query) + L - 1]`). Computed
/// once per encoder pass and shared by every layer, as MPNet's encoder does.
package struct RelativePositionBias {
    /// `[heads, 2·sequenceLength - 1]`.
    let values: [Float]
    let sequenceLength: Int

    /// Looks each distance's bucket up in `table` (`[buckets, heads]`, the checkpoint's
    /// `encoder.relative_attention_bias.weight`).
    init(table: Tensor<Float>, heads: Int, sequenceLength: Int) {
        let span = max(2 * sequenceLength - 1, 0)
        let source = table.elementPointer
        var values = [Float](repeating: 0, count: heads * span)
        for distance in 0..<span {
            let bucket = MPNetPositions.bucket(relative: distance - (sequenceLength - 1))
            for head in 0..<heads { values[head * span + distance] = source[bucket * heads + head] }
        }
        self.values = values
        self.sequenceLength = sequenceLength
    }
}
