/// Scratch buffers for one encoder pass, allocated once per pass and reused by every layer
/// (no allocation inside the layer loop).
final class EncoderWorkspace {
    let rows: Int
    /// [rows, hidden]: the hidden states, updated in place layer by layer.
    let hidden: UnsafeMutablePointer<Float>
    /// [rows, 3·hidden]: queries, keys and values side by side per row.
    let queryKeyValue: UnsafeMutablePointer<Float>
    /// [rows, hidden]: attention output per row (heads concatenated).
    let context: UnsafeMutablePointer<Float>
    /// [rows, intermediate]: the feed-forward activations.
    let intermediate: UnsafeMutablePointer<Float>
    private let buffers: [UnsafeMutablePointer<Float>]

    init(rows: Int, hiddenSize: Int, intermediateSize: Int) {
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
        intermediate = allocate(rows * intermediateSize)
        buffers = [hidden, queryKeyValue, context, intermediate]
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
