import CKernels

extension Kernels {
    /// Scaled dot-product attention for every head of every sequence, fused per head: scores,
    /// softmax and the weighted sum of values stay in one thread's cache, and the heads are spread
    /// over the kernel threads.
    ///
    /// Row r of `queryKeyValue` holds row r's queries for all heads (`heads × headSize` floats, head
    /// by head), then its keys, then its values; rows are `rowStride` floats apart. The queries must
    /// already be scaled by 1/√headSize (models fold that into the query projection). Sequence s
    /// owns rows `s × sequenceLength ..< (s + 1) × sequenceLength`, of which the first `lengths[s]`
    /// attend and are attended; `keyMasks[s]`, when present, holds `lengths[s]` additive values for
    /// its keys (-infinity masks a key). `relativeBias`, when present, holds per head the `2L - 1`
    /// values (L = `sequenceLength`) added to every score by the distance key - query, at
    /// `relativeBias[h × (2L - 1) + key - query + L - 1]` (MPNet's relative position bias); it is
    /// added before the key mask, as `transformers` does. Head h of row r is written to
    /// `context[r × contextStride + h × headSize ..< + headSize]`; rows past a sequence's length are
    /// not written.
    ///
    /// At ``Precision/int8`` both products run through the INT8 GEMM (``INT8AttentionHead``): the
    /// queries quantized per row, the keys per key and the values per channel, and the softmax written
    /// straight as 8-bit probabilities per row; the scores, their bias and mask stay F32.
    ///
    ///     // qkv: [rows, 3·hidden] from one fused projection; context: [rows, hidden]
    ///     Kernels.multiHeadAttention(queryKeyValue: qkv, rowStride: 3 * hidden, sequenceLength: 384,
    ///                                lengths: [384], keyMasks: [nil], heads: 12, headSize: 64,
    ///                                context: context, contextStride: hidden)
    public static func multiHeadAttention(queryKeyValue: UnsafePointer<Float>, rowStride: Int, sequenceLength: Int,
                                          lengths: [Int], keyMasks: [[Float]?], relativeBias: [Float]? = nil,
                                          heads: Int, headSize: Int,
                                          context: UnsafeMutablePointer<Float>, contextStride: Int,
                                          precision: Precision = .f32) {
        precondition(keyMasks.count == lengths.count, "one key mask (or nil) per sequence")
        let biasSpan = 2 * sequenceLength - 1
        precondition(relativeBias.map { $0.count == heads * biasSpan } ?? true, "relative bias: \(heads) × \(biasSpan) values")
        precondition(lengths.allSatisfy { $0 <= sequenceLength }, "a sequence length exceeds \(sequenceLength)")
        let pairs = lengths.count * heads
        let longest = lengths.max() ?? 0
        guard pairs > 0, longest > 0, headSize > 0 else { return }

        // Per thread: the scores, then the packed K_hᵀ and V_h (F32), or INT8AttentionHead's operands;
        // each part 64-byte aligned for the kernels.
        let scoresFloats = alignedFloats(min(attentionRowBlock, longest) * longest)
        let keyFloats = alignedFloats(nlukit_packed_size(headSize, longest))
        let valueFloats = alignedFloats(nlukit_packed_size(longest, headSize))
        let int8Layout = precision == .int8 ? INT8AttentionHead.Layout(headSize: headSize, longest: longest) : nil
        let perThread = scoresFloats + (int8Layout.map { alignedFloats($0.byteCount / 4 + 1) } ?? keyFloats + valueFloats)
        let threads = min(threadCount, pairs)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: threads * perThread * MemoryLayout<Float>.stride,
                                                       alignment: 64).bindMemory(to: Float.self, capacity: threads * perThread)
        defer { scratch.deallocate() }
        let hidden = heads * headSize
        let panelWidth = Int(NLUKIT_PANEL_WIDTH)

        // One task per thread, each taking every `threads`-th (sequence, head) pair: the scratch
        // belongs to the task, and heads are equal work.
        parallelFor(threads) { thread in
            let scores = scratch + thread * perThread
            let keyPanels = scores + scoresFloats
            let valuePanels = keyPanels + keyFloats
            for pair in stride(from: thread, to: pairs, by: threads) {
                let sequence = pair / heads, head = pair % heads
                let length = lengths[sequence]
                guard length > 0 else { continue }
                let rows = queryKeyValue + sequence * sequenceLength * rowStride
                let queries = rows + head * headSize
                let keys = rows + hidden + head * headSize
                let values = rows + 2 * hidden + head * headSize
                let headContext = context + sequence * sequenceLength * contextStride + head * headSize
                let bias = relativeBias.map { (values: $0, offset: head * biasSpan + sequenceLength - 1) }
                if let int8Layout {
                    INT8AttentionHead(layout: int8Layout, scratch: UnsafeMutableRawPointer(keyPanels), scores: scores)
                        .run(queries: queries, keys: keys, values: values, rowStride: rowStride, length: length,
                             keyMask: keyMasks[sequence], relativeBias: bias, context: headContext, contextStride: contextStride)
                    continue
                }
                // K_hᵀ and V_h packed once per head; then the queries a block of rows at a time
                // (scores, softmax, P · V_h), so a block's scores stay in L1 between the three steps.
                nlukit_pack(keys, rowStride, 1, headSize, length, keyPanels)
                nlukit_pack(values, rowStride, 0, length, headSize, valuePanels)
                for first in stride(from: 0, to: length, by: attentionRowBlock) {
                    let count = min(attentionRowBlock, length - first)
                    // scores = Q_h · K_hᵀ for query rows [first, first + count).
                    nlukit_packed_gemm(queries + first * rowStride, rowStride, count, headSize, keyPanels, length,
                                       0, (length + panelWidth - 1) / panelWidth, scores, length, 0, nil, 0)
                    addRelativeBias(bias, to: scores, rows: first..<first + count, length: length)
                    keyMasks[sequence].withUnsafeOptionalBufferPointer { mask in
                        nlukit_softmax_rows(scores, scores, count, length, mask, 1, 0)
                    }
                    // context_h = P · V_h, into the head's columns.
                    nlukit_packed_gemm(scores, length, count, length, valuePanels, headSize,
                                       0, (headSize + panelWidth - 1) / panelWidth,
                                       headContext + first * contextStride, contextStride, 0, nil, 0)
                }
            }
        }
    }

    /// Adds MPNet's relative position bias to the scores of query rows `rows` (row r of `scores` is
    /// query `rows.lowerBound + r`): row `query` adds the bias's values for distances
    /// -query ..< length - query, read from `bias.values` at `bias.offset - query`.
    static func addRelativeBias(_ bias: (values: [Float], offset: Int)?, to scores: UnsafeMutablePointer<Float>,
                                rows: Range<Int>, length: Int) {
        guard let bias else { return }
        bias.values.withUnsafeBufferPointer { values in
            guard let base = values.baseAddress else { return }
            for (row, query) in rows.enumerated() {
                let line = scores + row * length, distances = base + bias.offset - query
                for key in 0..<length { line[key] += distances[key] }
            }
        }
    }
}

/// Floats rounded up to a whole number of 64-byte lines, so that consecutive parts of a scratch
/// buffer stay aligned for the kernels.
func alignedFloats(_ floats: Int) -> Int { (floats + 15) / 16 * 16 }

/// Query rows per step of ``Kernels/multiHeadAttention``: 24 rows of scores over 384 keys are
/// 36 KB, about an L1 (32-48 KB), where the whole 384 × 384 matrix (590 KB) made three round trips
/// through L2 (scores, softmax, P · V). A multiple of both register blocks' rows (8 at AVX-512, 3 at
/// AVX2). Measured at 1 thread, QA-384, CPU time under load: attention 69.6 → 66.4 ms per pass at
/// avx512, 75 → 72.5 at avx2; 16 rows was level with 24 at avx512 (AVX2 then runs a 1-row remainder).
let attentionRowBlock = 24

extension Optional where Wrapped == [Float] {
    /// Calls `body` with the array's buffer address, or nil when there is no array.
    func withUnsafeOptionalBufferPointer<R>(_ body: (UnsafePointer<Float>?) -> R) -> R {
        switch self {
        case .some(let array): return array.withUnsafeBufferPointer { body($0.baseAddress) }
        case .none: return body(nil)
        }
    }
}
