/// Scratch buffers for one encoder pass, allocated once per pass and reused by every layer
/// (no allocation inside the layer loop).
package final class EncoderWorkspace {
    package let rows: Int
    /// [rows, hidden]: the hidden states, updated in place layer by layer.
    package let hidden: UnsafeMutablePointer<Float>
    /// [rows, 3·hidden]: queries, keys and values side by side per row.
    let queryKeyValue: UnsafeMutablePointer<Float>
    /// [rows, hidden]: attention output per row (heads concatenated).
    let context: UnsafeMutablePointer<Float>
    /// [feedForwardRows, intermediate]: the feed-forward activations of one chunk of rows.
    let intermediate: UnsafeMutablePointer<Float>
    /// Rows per feed-forward chunk. The [rows, intermediate] activations would be the largest
    /// buffer of a pass (12 KB a row for BERT-base); in chunks they stay bounded, so many windows
    /// of a document fit in one pass. The encoder's default, 1024 rows, keeps the GEMMs as fast as
    /// whole passes.
    let feedForwardRows: Int
    private let buffers: [UnsafeMutablePointer<Float>]

    init(rows: Int, hiddenSize: Int, intermediateSize: Int, feedForwardRows: Int) {
        // Float is a trivial type: buffers every layer overwrites before reading are left
        // uninitialized (zeroing them cost a few percent of a pass). The context is zeroed because
        // attention never writes its padding rows.
        func allocate(_ count: Int, zeroed: Bool = false) -> UnsafeMutablePointer<Float> {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
            if zeroed { buffer.initialize(repeating: 0, count: max(count, 1)) }
            return buffer
        }
        self.rows = rows
        hidden = allocate(rows * hiddenSize)
        queryKeyValue = allocate(rows * hiddenSize * 3)
        context = allocate(rows * hiddenSize, zeroed: true)
        self.feedForwardRows = max(1, min(rows, feedForwardRows))
        intermediate = allocate(self.feedForwardRows * intermediateSize)
        buffers = [hidden, queryKeyValue, context, intermediate]
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
