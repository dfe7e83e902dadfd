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

extension Kernels {
    /// The backward pass of ``embedding(_:ids:)`` over raw buffers: adds row `i` of `rows`
    /// (`[count, width]`) to row `ids[i]` of `table` (`[vocabulary, width]`), so that repeated ids
    /// sum. Every id must be in the table's range (the caller checked them for the forward pass).
    static func addRows(_ rows: UnsafePointer<Float>, ids: UnsafePointer<Int32>, count: Int, width: Int,
                        vocabulary: Int, into table: UnsafeMutablePointer<Float>) {
        for position in 0..<count {
            precondition(ids[position] >= 0 && Int(ids[position]) < vocabulary, "embedding id \(ids[position]) outside 0..<\(vocabulary)")
        }
        // Split by columns: repeated ids then never make two threads add into the same element, and
        // each element's sum keeps its order (the result does not depend on the thread count).
        forEachRowChunk(rowCount: width, rowLength: count) { columns in
            for position in 0..<count {
                let source = rows + position * width, target = table + Int(ids[position]) * width
                for column in columns { target[column] += source[column] }
            }
        }
    }
}
