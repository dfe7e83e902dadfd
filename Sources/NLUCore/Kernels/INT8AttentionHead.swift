import CKernels

/// One head of ``Kernels/multiHeadAttention`` at ``Precision/int8``, on one thread's scratch.
///
/// Both products of attention run through the INT8 GEMM (``QuantizedMatrix``'s kernel) with the
/// operands quantized the way that GEMM quantizes a dense layer's: Q_h · K_hᵀ with the queries per
/// row and the keys per key (each key is an output channel), P · V_h with the probabilities per row
/// and the values per channel over the keys. The scores come out in F32, take MPNet's bias and the
/// key mask in F32, and the softmax writes them straight as bytes (`nlukit_int8_softmax_rows`: the
/// row's largest probability is 255 or 127, so no pass of its own finds the scale). The weight
/// limit and the activations' form are the CPU level's, as for the dense layers.
///
/// Why: without an int8 dot product (AVX2 only) the linear layers reach about 2× F32 and attention's
/// two F32 products were the largest part left of an INT8 question (docs/int8.md). What it costs:
/// a probability below 1/510 of its row's largest rounds to 0 (1/254 with signed or 7-bit rows).
struct INT8AttentionHead {
    /// Where each operand lives in a thread's scratch, for heads of `headSize` over at most `longest`
    /// keys; every part starts on a 64-byte line.
    struct Layout {
        let headSize: Int
        let weightLimit: Int32
        /// How queries and probabilities are stored (`NLUKIT_INT8_SIGNED`, `_UNSIGNED` or `_UNSIGNED_7BIT`).
        let activationForm: Int32
        /// Bytes per quantized query row, and per row of probabilities (whole K groups).
        let queryStride: Int, probabilityStride: Int
        let queries: Int, queryScales: Int
        let keys: Int, keyScales: Int, keySums: Int
        let values: Int, valueScales: Int, valueSums: Int, zeroSums: Int
        let probabilities: Int, probabilityScales: Int
        let byteCount: Int

        init(headSize: Int, longest: Int) {
            self.headSize = headSize
            weightLimit = nlukit_int8_weight_limit()
            activationForm = nlukit_int8_activation_form(weightLimit)
            queryStride = nlukit_int8_padded_inner(headSize)
            probabilityStride = nlukit_int8_padded_inner(longest)
            let panel = Int(NLUKIT_PANEL_WIDTH)
            let keyColumns = (longest + panel - 1) / panel * panel, valueColumns = (headSize + panel - 1) / panel * panel
            var end = 0
            func part(_ bytes: Int) -> Int {
                defer { end += (bytes + 63) / 64 * 64 }
                return end
            }
            queries = part(longest * queryStride)
            queryScales = part(longest * 4)
            keys = part(nlukit_int8_packed_size(headSize, longest))
            keyScales = part(keyColumns * 4)
            keySums = part(keyColumns * 4)
            values = part(nlukit_int8_packed_size(longest, headSize))
            valueScales = part(valueColumns * 4)
            valueSums = part(valueColumns * 4)
            zeroSums = part(valueColumns * 4)
            probabilities = part(min(attentionRowBlock, longest) * probabilityStride)
            probabilityScales = part(attentionRowBlock * 4)
            byteCount = end
        }
    }

    let layout: Layout
    /// `layout.byteCount` bytes, 64-byte aligned, owned by the calling thread.
    let scratch: UnsafeMutableRawPointer
    /// `min(attentionRowBlock, longest) × longest` floats for one block of scores.
    let scores: UnsafeMutablePointer<Float>

    /// Attention of one head over `length` positions, as ``Kernels/multiHeadAttention`` describes
    /// it: queries, keys and values `rowStride` floats apart, the context written `contextStride`
    /// floats apart.
    func run(queries: UnsafePointer<Float>, keys: UnsafePointer<Float>, values: UnsafePointer<Float>, rowStride: Int,
             length: Int, keyMask: [Float]?, relativeBias: (values: [Float], offset: Int)?,
             context: UnsafeMutablePointer<Float>, contextStride: Int) {
        let headSize = layout.headSize, limit = layout.weightLimit, form = layout.activationForm
        func bytes(_ offset: Int) -> UnsafeMutablePointer<Int8> { (scratch + offset).assumingMemoryBound(to: Int8.self) }
        func floats(_ offset: Int) -> UnsafeMutablePointer<Float> { (scratch + offset).assumingMemoryBound(to: Float.self) }
        func sums(_ offset: Int) -> UnsafeMutablePointer<Int32> { (scratch + offset).assumingMemoryBound(to: Int32.self) }
        let panel = Int(NLUKIT_PANEL_WIDTH)
        let keyPanels = (length + panel - 1) / panel, valuePanels = (headSize + panel - 1) / panel
        // Probabilities carry no offset (they are never negative): their product takes zero column sums.
        sums(layout.zeroSums).initialize(repeating: 0, count: valuePanels * panel)
        nlukit_int8_pack(keys, rowStride, headSize, length, limit, bytes(layout.keys), floats(layout.keyScales),
                         sums(layout.keySums))
        nlukit_int8_pack_columns(values, rowStride, length, headSize, limit, bytes(layout.values),
                                 floats(layout.valueScales), sums(layout.valueSums))
        nlukit_int8_quantize_rows(queries, rowStride, length, headSize, bytes(layout.queries), layout.queryStride,
                                  floats(layout.queryScales), form)
        let none = Int32(NLUKIT_ACTIVATION_NONE)
        for first in stride(from: 0, to: length, by: attentionRowBlock) {
            let count = min(attentionRowBlock, length - first)
            // scores = Q_h · K_hᵀ for query rows [first, first + count).
            nlukit_int8_gemm(bytes(layout.queries) + first * layout.queryStride, layout.queryStride,
                             floats(layout.queryScales) + first, form, count, headSize, bytes(layout.keys), limit,
                             floats(layout.keyScales), sums(layout.keySums), length, 0, keyPanels, scores, length, 0,
                             nil, none, nil)
            Kernels.addRelativeBias(relativeBias, to: scores, rows: first..<first + count, length: length)
            keyMask.withUnsafeOptionalBufferPointer { mask in
                nlukit_int8_softmax_rows(scores, count, length, mask, bytes(layout.probabilities), layout.probabilityStride,
                                         floats(layout.probabilityScales), form)
            }
            // context_h = P · V_h, into the head's columns.
            nlukit_int8_gemm(bytes(layout.probabilities), layout.probabilityStride, floats(layout.probabilityScales),
                             form, count, length, bytes(layout.values), limit, floats(layout.valueScales),
                             sums(layout.zeroSums), headSize, 0, valuePanels, context + first * contextStride,
                             contextStride, 0, nil, none, nil)
        }
    }
}
