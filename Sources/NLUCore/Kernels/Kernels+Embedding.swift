extension Kernels {
    /// Gathers rows of `table` (`[vocabulary, dimension]`) for each id: the result has shape
    /// `ids.shape + [dimension]`. Every id must be in `0..<vocabulary` (check user-supplied ids
    /// first, e.g. with ``Embedding``, which throws).
    ///
    ///     let vectors = Kernels.embedding(wordEmbeddings, ids: Tensor<Int32>(shape: [1, 3], scalars: [101, 7592, 102]))
    public static func embedding(_ table: Tensor<Float>, ids: Tensor<Int32>) -> Tensor<Float> {
        precondition(table.rank == 2, "embedding table must be [vocabulary, dimension], got \(table.shape)")
        let vocabulary = table.shape[0], dimension = table.shape[1]
        var result = Tensor<Float>(shape: ids.shape + [dimension])
        table.withUnsafeBufferPointer { table in
            ids.withUnsafeBufferPointer { ids in
                result.withUnsafeMutableBufferPointer { output in
                    for (position, id) in ids.enumerated() {
                        precondition(id >= 0 && Int(id) < vocabulary, "embedding id \(id) outside 0..<\(vocabulary)")
                        (output.baseAddress! + position * dimension)
                            .update(from: table.baseAddress! + Int(id) * dimension, count: dimension)
                    }
                }
            }
        }
        return result
    }
}
