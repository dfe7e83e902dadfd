import NLUCore

/// The activations a training forward pass keeps for its backward pass, and the backward pass's
/// scratch, for one batch shape (`batchSize` sequences of `sequenceLength` positions). Allocated
/// once per shape by ``TrainableEncoder/makeWorkspace(batchSize:sequenceLength:)`` and reused by
/// every step: the passes allocate nothing per layer or per step.
///
/// About `layers · rows · (9·hidden + 2·intermediate) + layers · 2·batch·heads·sequence²` floats
/// (``scalarCount``): for BERT-base, 32 sequences of 128 tokens, about 870 million floats (3.5 GB).
///
///     let workspace = try encoder.makeWorkspace(batchSize: 32, sequenceLength: 128)
///     for batch in batches { _ = try encoder.forward(batch, workspace: workspace); ... }
public final class EncoderTrainingWorkspace {
    /// Sequences per batch.
    public let batchSize: Int
    /// Positions per sequence.
    public let sequenceLength: Int
    /// How many floats the workspace holds.
    public private(set) var scalarCount = 0
    /// The token rows the buffers hold: `batchSize × sequenceLength`.
    let capacityRows: Int
    /// The token rows the last forward pass computed (``arrange(computedLengths:)``): every row of
    /// every sequence, or only the positions up to each sequence's last attended token.
    private(set) var rows: Int
    /// Per sequence, the positions computed, `0 ..< computedLengths[s]`, stored as the rows
    /// `sequenceOffsets[s] ..< sequenceOffsets[s] + computedLengths[s]`: the sequences' computed rows
    /// back to back, so every dense product runs over computed rows only.
    private(set) var computedLengths: [Int]
    private(set) var sequenceOffsets: [Int]
    /// For each computed row, its index in the batch's row-major `[batch, sequence]` layout.
    let batchIndex: UnsafeMutablePointer<Int>
    /// The configuration the buffers were sized for.
    let configuration: BertConfiguration

    /// One block's kept activations; the masks hold the dropout's 0-or-scale factors.
    struct Layer {
        let query, key, value: UnsafeMutablePointer<Float>          // [rows, hidden]
        let probabilities: UnsafeMutablePointer<Float>              // [batch, heads, seq, seq], after softmax
        let probabilityMask: UnsafeMutablePointer<Float>            // same shape
        let context: UnsafeMutablePointer<Float>                    // [rows, hidden]
        let attentionMask: UnsafeMutablePointer<Float>              // [rows, hidden]: attention output dropout
        let attentionNormalized: UnsafeMutablePointer<Float>        // [rows, hidden]: x̂ of the first norm
        let attentionInverseDeviation: UnsafeMutablePointer<Float>  // [rows]
        let attentionOutput: UnsafeMutablePointer<Float>            // [rows, hidden]: the first norm's output
        let preActivation: UnsafeMutablePointer<Float>              // [rows, intermediate]
        let activation: UnsafeMutablePointer<Float>                 // [rows, intermediate]
        let outputMask: UnsafeMutablePointer<Float>                 // [rows, hidden]: feed-forward output dropout
        let outputNormalized: UnsafeMutablePointer<Float>           // [rows, hidden]
        let outputInverseDeviation: UnsafeMutablePointer<Float>     // [rows]
    }

    /// `hidden[l]`: block l's input, [rows, hidden]; `hidden[layers]` is the encoder's output.
    let hidden: [UnsafeMutablePointer<Float>]
    let layers: [Layer]
    let embeddingNormalized: UnsafeMutablePointer<Float>        // [rows, hidden]
    let embeddingInverseDeviation: UnsafeMutablePointer<Float>  // [rows]
    let embeddingMask: UnsafeMutablePointer<Float>              // [rows, hidden]
    /// The position id of every token of the last forward batch.
    let positionIDs: UnsafeMutablePointer<Int>
    /// Per head, the relative position bias of each distance `key - query + seq - 1` (MPNet's
    /// T5-style buckets, ``MPNetPositions``: the one family with a relative bias).
    let positionBias: UnsafeMutablePointer<Float>               // [heads, 2·seq - 1]
    /// The bias-table bucket of each distance (MPNet).
    let distanceBuckets: UnsafeMutablePointer<Int>              // [2·seq - 1]

    // Backward scratch.
    let gradientHidden, gradientAttention, gradientScratch: UnsafeMutablePointer<Float>  // [rows, hidden]
    let gradientQuery, gradientKey, gradientValue, gradientContext: UnsafeMutablePointer<Float>
    let gradientIntermediate: UnsafeMutablePointer<Float>       // [rows, intermediate]
    /// One `[seq, seq]` slot per head: the attention passes run the heads in parallel.
    let headScores, headScratch: UnsafeMutablePointer<Float>    // [heads, seq, seq]
    /// Per head, the packed B operand and the transposed A operand of its current product
    /// (``TrainingProducts/multiplyOnThisThread(_:_:m:n:k:alpha:a:lda:b:ldb:c:ldc:panels:transposed:)``):
    /// `headPanelStride` 64-byte-aligned floats and `[seq, seq]` floats a head.
    let headPanels, headTransposed: UnsafeMutablePointer<Float>
    let headPanelStride: Int
    /// The forward pass's sum before a layer norm, [rows, hidden].
    let sumScratch: UnsafeMutablePointer<Float>
    /// The dense layers' products, with scratch for the largest of them allocated here.
    let products: TrainingProducts

    /// What the last forward pass left here, for its backward pass: the batch, and which dropout it drew.
    var forwardBatch: EncoderBatch?
    var forwardDropout = EncoderDropout(hidden: 0, attention: 0)

    private var buffers: [UnsafeMutableRawPointer] = []

    /// Allocates the buffers for `configuration` and the given shape (sizes checked by the caller).
    init(configuration config: BertConfiguration, batchSize: Int, sequenceLength: Int) {
        self.batchSize = batchSize
        self.sequenceLength = sequenceLength
        let rows = batchSize * sequenceLength
        capacityRows = rows
        self.rows = rows
        computedLengths = Array(repeating: sequenceLength, count: batchSize)
        sequenceOffsets = (0..<batchSize).map { $0 * sequenceLength }
        self.configuration = config
        let h = config.hiddenSize, i = config.intermediateSize, heads = config.attentionHeadCount
        let square = sequenceLength * sequenceLength, span = max(2 * sequenceLength - 1, 1)
        var buffers: [UnsafeMutableRawPointer] = []
        var scalars = 0
        // Zeroed: attention products and the masks are read whole, and a zero start keeps any
        // position a pass does not write deterministic.
        func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
            buffer.initialize(repeating: 0, count: max(count, 1))
            buffers.append(UnsafeMutableRawPointer(buffer))
            scalars += count
            return buffer
        }
        func integers(_ count: Int) -> UnsafeMutablePointer<Int> {
            let buffer = UnsafeMutablePointer<Int>.allocate(capacity: max(count, 1))
            buffer.initialize(repeating: 0, count: max(count, 1))
            buffers.append(UnsafeMutableRawPointer(buffer))
            return buffer
        }
        hidden = (0...config.layerCount).map { _ in floats(rows * h) }
        layers = (0..<config.layerCount).map { _ in
            Layer(query: floats(rows * h), key: floats(rows * h), value: floats(rows * h),
                  probabilities: floats(batchSize * heads * square), probabilityMask: floats(batchSize * heads * square),
                  context: floats(rows * h), attentionMask: floats(rows * h), attentionNormalized: floats(rows * h),
                  attentionInverseDeviation: floats(rows), attentionOutput: floats(rows * h),
                  preActivation: floats(rows * i), activation: floats(rows * i), outputMask: floats(rows * h),
                  outputNormalized: floats(rows * h), outputInverseDeviation: floats(rows))
        }
        embeddingNormalized = floats(rows * h)
        embeddingInverseDeviation = floats(rows)
        embeddingMask = floats(rows * h)
        positionIDs = integers(rows)
        batchIndex = integers(rows)
        for row in 0..<rows { batchIndex[row] = row }
        positionBias = floats(heads * span)
        distanceBuckets = integers(span)
        gradientHidden = floats(rows * h)
        gradientAttention = floats(rows * h)
        gradientScratch = floats(rows * h)
        gradientQuery = floats(rows * h)
        gradientKey = floats(rows * h)
        gradientValue = floats(rows * h)
        gradientContext = floats(rows * h)
        gradientIntermediate = floats(rows * i)
        headScores = floats(heads * square)
        headScratch = floats(heads * square)
        // A head's products pack `headSize × seq` (Kᵀ, Vᵀ) or `seq × headSize` (V, d(context), K, Q).
        let headSize = config.headSize
        headPanelStride = (max(TrainingProducts.packedSize(inner: headSize, width: sequenceLength),
                               TrainingProducts.packedSize(inner: sequenceLength, width: headSize)) + 15) / 16 * 16
        let panels = UnsafeMutableRawPointer.allocate(byteCount: max(heads * headPanelStride, 1) * MemoryLayout<Float>.stride,
                                                      alignment: 64)
        buffers.append(panels)
        headPanels = panels.bindMemory(to: Float.self, capacity: max(heads * headPanelStride, 1))
        headTransposed = floats(heads * square)
        sumScratch = floats(rows * h)
        // The largest packed B: a block of a weight's rows (TrainingProducts.depthBlock at most); no
        // product transposes its A (the weight gradient, dyᵀ·x, runs on sgemm).
        let widest = max(h, i)
        products = TrainingProducts(packedCapacity: TrainingProducts.packedSize(inner: min(widest, TrainingProducts.depthBlock),
                                                                                width: widest))
        self.buffers = buffers
        scalarCount = scalars
        if config.architecture.family.tensorNames.relativeAttentionBias != nil {
            for distance in 0..<(2 * sequenceLength - 1) {
                distanceBuckets[distance] = MPNetPositions.bucket(relative: distance - (sequenceLength - 1))
            }
        }
    }

    /// Lays out the next forward pass: sequence `s` computes its positions `0 ..< lengths[s]`
    /// (each between 1 and ``sequenceLength``; checked by the caller).
    func arrange(computedLengths lengths: [Int]) {
        precondition(lengths.count == batchSize && lengths.allSatisfy { $0 >= 1 && $0 <= sequenceLength },
                     "computed lengths \(lengths) for \(batchSize) sequences of \(sequenceLength)")
        guard lengths != computedLengths else { return }
        var row = 0
        for (sequence, length) in lengths.enumerated() {
            sequenceOffsets[sequence] = row
            for position in 0..<length { batchIndex[row + position] = sequence * sequenceLength + position }
            row += length
        }
        computedLengths = lengths
        rows = row
    }

    /// The floats a workspace for `configuration` and the shape would hold, or nil when the count
    /// overflows: checked before allocating.
    public static func scalarCount(configuration config: BertConfiguration, batchSize: Int, sequenceLength: Int) -> Int? {
        let (rows, o1) = batchSize.multipliedReportingOverflow(by: sequenceLength)
        let (square, o2) = sequenceLength.multipliedReportingOverflow(by: sequenceLength)
        let perRow = 12 * config.hiddenSize + 3 * config.intermediateSize + 3
        let (rowScalars, o3) = rows.multipliedReportingOverflow(by: perRow * (config.layerCount + 1))
        let (attention, o4) = square.multipliedReportingOverflow(by: 2 * config.attentionHeadCount * (batchSize * config.layerCount + 1))
        let (total, o5) = rowScalars.addingReportingOverflow(attention)
        return o1 || o2 || o3 || o4 || o5 ? nil : total
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
