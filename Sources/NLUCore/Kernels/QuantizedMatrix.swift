import CKernels

/// A dense layer's weight quantized to INT8 once, per output channel, for the products
/// `x[m, k] · weightᵀ` of inference at ``Precision/int8``: each input row is quantized on the fly
/// with its own scale, the products accumulate exactly in int32, and one float scale per element
/// plus the same fused bias / residual / activation epilogue as ``PackedMatrix`` give the result.
///
/// The C kernel (``nlukit_int8_gemm``) has a block per CPU level: AVX-512 VNNI (`vpdpbusd`), AVX2
/// (`vpmaddubsw`/`vpmaddwd`, never saturating) and portable loops; all give the same integer sums
/// of the same quantized operands. On a CPU without an int8 dot product (AVX2 only, or AVX-512
/// without VNNI) the weights are quantized to 7 bits (``weightLimit`` 63, as ONNX Runtime's
/// `reduce_range`) and the input rows too (``activationLimit`` 63), which lets the AVX2 block skip
/// a sign step per product and share one widening step between two pairs of products: about 2.2×
/// the F32 GEMM's rate there instead of 1.4×. Weights take a quarter of the F32 memory. Immutable after `init`, so one
/// instance may be used from several threads at once.
///
///     let dense = QuantizedMatrix(linearWeight: weight)                       // [out, in]
///     dense.multiply(x, rows: tokens, into: hidden, bias: b, activation: .gelu)   // ≈ gelu(x·wᵀ + b)
public final class QuantizedMatrix: @unchecked Sendable {
    /// The inner dimension k of the products (the weight's input size).
    public let inner: Int
    /// The output width n of the products (the weight's output size).
    public let width: Int
    private let packed: UnsafeMutableRawPointer
    /// One scale per output channel (padded to whole panels): weight ≈ q · scale.
    private let scales: UnsafeMutablePointer<Float>
    /// Σ_k q per output channel (padded): the VNNI block's correction for unsigned activations.
    private let columnSums: UnsafeMutablePointer<Int32>
    private let panelCount: Int
    private let paddedInner: Int
    /// The largest |q| of the quantized weights: 127, or 63 (7-bit) where the CPU's INT8 block
    /// needs it (``init(linearWeight:outputs:inputs:weightLimit:)``).
    public let weightLimit: Int

    /// Quantizes and packs an `nn.Linear` weight of `outputs` rows and `inputs` columns (row j of
    /// output channel j at `weight + j·inputs`), to [-weightLimit, weightLimit] per output channel:
    /// 127 or 63; nil takes what the current CPU level's fastest INT8 block wants
    /// (``preferredWeightLimit``). Every level computes exact sums with either.
    ///
    ///     let query = QuantizedMatrix(linearWeight: w.baseAddress!, outputs: 768, inputs: 768)
    public init(linearWeight weight: UnsafePointer<Float>, outputs: Int, inputs: Int, weightLimit: Int? = nil) {
        precondition(outputs >= 0 && inputs >= 0, "QuantizedMatrix of \(outputs) × \(inputs)")
        let limit = weightLimit ?? Self.preferredWeightLimit
        precondition(limit == 127 || limit == 63, "QuantizedMatrix weight limit \(limit): expected 127 or 63")
        self.weightLimit = limit
        inner = inputs
        width = outputs
        paddedInner = nlukit_int8_padded_inner(inputs)
        panelCount = (outputs + Int(NLUKIT_PANEL_WIDTH) - 1) / Int(NLUKIT_PANEL_WIDTH)
        let columns = max(1, panelCount * Int(NLUKIT_PANEL_WIDTH))
        // 64-byte alignment: the kernels load whole K groups of a panel as aligned vectors.
        packed = UnsafeMutableRawPointer.allocate(byteCount: max(1, nlukit_int8_packed_size(inputs, outputs)), alignment: 64)
        scales = .allocate(capacity: columns)
        columnSums = .allocate(capacity: columns)
        // A range of panels per kernel thread (panels are independent; their padding is packed with the last).
        let panel = Int(NLUKIT_PANEL_WIDTH), destination = packed.assumingMemoryBound(to: Int8.self)
        Kernels.forEachRowChunk(rowCount: panelCount, rowLength: paddedInner * panel) { [paddedInner] panels in
            let first = panels.lowerBound * panel, count = min(outputs, panels.upperBound * panel) - first
            nlukit_int8_pack(weight + first * inputs, inputs, inputs, count, Int32(limit),
                             destination + panels.lowerBound * paddedInner * panel, scales + first, columnSums + first)
        }
    }

    /// The largest |q| of the input rows as the current CPU level's INT8 block reads them with this
    /// weight: 63 (7-bit rows) on AVX2 without an int8 dot product for 7-bit weights, else 127.
    public var activationLimit: Int { Int(nlukit_int8_activation_limit(nlukit_int8_activation_form(Int32(weightLimit)))) }

    /// The weight limit the current CPU level's fastest INT8 block wants: 63 without an int8 dot
    /// product (AVX2 without AVX-VNNI; AVX-512 without either VNNI), else 127.
    public static var preferredWeightLimit: Int { Int(nlukit_int8_weight_limit()) }

    /// The largest |q| of input rows at the current CPU level for weights at ``preferredWeightLimit``:
    /// 63 where the AVX2 block runs (no int8 dot product), else 127.
    public static var preferredActivationLimit: Int {
        Int(nlukit_int8_activation_limit(nlukit_int8_activation_form(nlukit_int8_weight_limit())))
    }

    /// Whether the current CPU level has an INT8 block faster than its F32 GEMM (AVX-512 VNNI,
    /// AVX-VNNI, AVX2, or arm64's dot product). Without one ``Precision/int8`` saves memory, not
    /// time: x86-64's baseline (SSE2 `pmaddwd`) runs INT8 at about its F32 rate, and arm64 cores
    /// without SDOT (such as the Cortex-A72) have no faster instruction for it either (`vmull_s8`).
    public static var hasFastPath: Bool { nlukit_int8_has_fast_path() != 0 }

    deinit {
        packed.deallocate()
        scales.deallocate()
        columnSums.deallocate()
    }

    /// `output[i, j] ≈ activation((accumulate ? output[i, j] : 0) + Σ x[i, kk]·weight[j, kk] + bias[j])`
    /// for `m` rows, through INT8: row i of `x` starts at `x + i·lda` (default k), row i of `output`
    /// at `output + i·ldc` (default n); `bias` has n floats or is nil. The rows are quantized once,
    /// then the column panels are split over threads.
    ///
    ///     dense.multiply(x, rows: 384, into: hidden, bias: b, activation: .gelu)
    public func multiply(_ x: UnsafePointer<Float>, rows m: Int, lda: Int? = nil, into output: UnsafeMutablePointer<Float>,
                         ldc: Int? = nil, accumulate: Bool = false, bias: UnsafePointer<Float>? = nil,
                         activation: PackedMatrix.Activation = .none) {
        let lda = lda ?? inner, ldc = ldc ?? width
        precondition(m >= 0 && lda >= inner && ldc >= width, "QuantizedMatrix.multiply: m \(m), lda \(lda), ldc \(ldc) for \(inner) × \(width)")
        guard m > 0 else { return }
        withQuantizedRows(x, rows: m, lda: lda) { rows, rowScales, form in
            Kernels.forEachRowChunk(rowCount: panelCount, rowLength: m * inner, minimumWork: 1 << 15,
                                chunksPerThread: gemmChunksPerThread) { panels in
                nlukit_int8_gemm(rows, paddedInner, rowScales, form, m, inner,
                                 packed.assumingMemoryBound(to: Int8.self), Int32(weightLimit), scales, columnSums, width,
                                 panels.lowerBound, panels.upperBound, output, ldc, accumulate ? 1 : 0, bias,
                                 activation.code, nil)
            }
        }
    }

    /// The exact integer sums `Σ_k qx[i, kk] · qw[j, kk]` of the quantized rows of `x` and the
    /// quantized weight, row-major [m, n], with the row scales: what every CPU level must agree on
    /// bit for bit (tests compare them with a plain loop).
    public func integerProducts(_ x: UnsafePointer<Float>, rows m: Int) -> (sums: [Int32], rowScales: [Float]) {
        precondition(m >= 0, "QuantizedMatrix.integerProducts: m \(m)")
        var sums = [Int32](repeating: 0, count: m * width)
        var rowScales = [Float](repeating: 0, count: m)
        guard m > 0 else { return (sums, rowScales) }
        withQuantizedRows(x, rows: m, lda: inner) { rows, scalesOfRows, form in
            rowScales = Array(UnsafeBufferPointer(start: scalesOfRows, count: m))
            sums.withUnsafeMutableBufferPointer { sums in
                nlukit_int8_gemm(rows, paddedInner, scalesOfRows, form, m, inner,
                                 packed.assumingMemoryBound(to: Int8.self), Int32(weightLimit), scales, columnSums, width,
                                 0, panelCount, nil, width, 0, nil, Int32(NLUKIT_ACTIVATION_NONE), sums.baseAddress)
            }
        }
        return (sums, rowScales)
    }

    /// The quantized weight of output channel `j` and its scale (weight ≈ q · scale), for tests.
    public func quantizedWeight(channel j: Int) -> (values: [Int8], scale: Float) {
        precondition(j >= 0 && j < width, "channel \(j) of \(width)")
        let groupBytes = Int(NLUKIT_PANEL_WIDTH) * Int(NLUKIT_INT8_K_GROUP)
        let panel = packed.assumingMemoryBound(to: Int8.self) + (j / Int(NLUKIT_PANEL_WIDTH)) * paddedInner * Int(NLUKIT_PANEL_WIDTH)
        let lane = j % Int(NLUKIT_PANEL_WIDTH)
        let values = (0..<inner).map { kk in
            panel[(kk / Int(NLUKIT_INT8_K_GROUP)) * groupBytes + lane * Int(NLUKIT_INT8_K_GROUP) + kk % Int(NLUKIT_INT8_K_GROUP)]
        }
        return (values, scales[j])
    }

    /// Quantizes `m` rows of `x` into a scratch buffer (padded rows, one scale per row) in the form
    /// the current CPU level's kernel reads (`nlukit_int8_activation_form`), and calls `body` with
    /// the rows, their scales and that form.
    private func withQuantizedRows(_ x: UnsafePointer<Float>, rows m: Int, lda: Int,
                                   _ body: (UnsafePointer<Int8>, UnsafePointer<Float>, Int32) -> Void) {
        let form = nlukit_int8_activation_form(Int32(weightLimit))
        let rows = UnsafeMutablePointer<Int8>.allocate(capacity: m * paddedInner)
        let rowScales = UnsafeMutablePointer<Float>.allocate(capacity: m)
        defer { rows.deallocate(); rowScales.deallocate() }
        // Rows are independent: split over threads for long inputs (a 384-token window is ~1 M values).
        Kernels.forEachRowChunk(rowCount: m, rowLength: inner) { chunk in
            nlukit_int8_quantize_rows(x + chunk.lowerBound * lda, lda, chunk.count, inner, rows + chunk.lowerBound * paddedInner,
                                      paddedInner, rowScales + chunk.lowerBound, form)
        }
        body(rows, rowScales, form)
    }
}
