import NLUCore
import NLUTransformers

/// A joint intent + slot model (JointBERT): one fine-tunable encoder, an intent head over the pooled
/// sentence vector and a slot head over each word's first word piece (and, when its input is that
/// much wider, the word's ``WordShape`` features after it), optionally followed by a CRF layer
/// (``CRFLayer``, `torchcrf`'s) over the words' tags.
///
/// The intent head reads the checkpoint's own sentence pooling (mean for sentence-transformers
/// models such as all-MiniLM-L6-v2), not BERT's `[CLS]` pooler as JointBERT does: those checkpoints
/// were trained through their pooling, and their pooler weights were never trained.
///
///     let model = try JointIntentSlotModel(encoder: encoder, pooling: [.mean], intentHead: intents,
///                                          slotHead: slots, crf: CRFLayer(tagCount: 9, using: &random))
///     let outputs = try model.outputs(batch.encoderBatch, wordPositions: batch.wordPositions)
///     let tags = model.decodeTags(outputs.slotLogits, wordCounts: batch.wordPositions.map(\.count))
public final class JointIntentSlotModel {
    /// The encoder being fine-tuned.
    public let encoder: TrainableEncoder
    /// Token states to sentence vectors, for the intent head.
    public let pooling: TokenPooling
    /// Pooled vector → intent logits (`intent_classifier`).
    public internal(set) var intentHead: Linear
    /// A word's first-piece state (then its shape features, with ``usesWordShapes``) → tag logits (`slot_classifier`).
    public internal(set) var slotHead: Linear
    /// The transition scores over tags, when the slot loss is a CRF's; nil: softmax per word.
    public internal(set) var crf: CRFLayer?
    /// The buffers of the last batch shape: consecutive batches of one shape reuse them.
    private var workspace: EncoderTrainingWorkspace?

    /// The parameter names of the heads, in ``headTensors`` order (JointBERT's module names).
    public var headParameterNames: [String] {
        ["intent_classifier.weight", "intent_classifier.bias", "slot_classifier.weight", "slot_classifier.bias"]
            + (crf == nil ? [] : ["crf.start_transitions", "crf.end_transitions", "crf.transitions"])
    }

    /// The heads' tensors, as the optimizer sees them.
    var headTensors: [Tensor<Float>] {
        get { intentHead.tensors + slotHead.tensors + (crf?.tensors ?? []) }
        set {
            intentHead.tensors = Array(newValue[0..<2])
            slotHead.tensors = Array(newValue[2..<4])
            if crf != nil { crf?.tensors = Array(newValue[4...]) }
        }
    }

    /// Whether the slot head reads each word's ``WordShape`` features after its hidden state (its input is
    /// the hidden width + ``WordShape/featureCount``).
    public var usesWordShapes: Bool { WordShape.areRead(bySlotHeadOf: slotHead.inputSize, hidden: encoder.configuration.hiddenSize) }

    /// A model from its parts.
    /// - Throws: ``TrainingSettingError`` naming the head whose input is not the pooled (intent) or
    ///   hidden (slot; or hidden + ``WordShape/featureCount``) width, that has no bias, or that has fewer
    ///   than 2 classes, or a CRF whose tag count is not the slot head's.
    public init(encoder: TrainableEncoder, pooling modes: [PoolingMode], intentHead: Linear, slotHead: Linear, crf: CRFLayer?) throws {
        let hidden = encoder.configuration.hiddenSize
        let pooling = TokenPooling(modes: modes, hiddenSize: hidden)
        let slotWidth = WordShape.areRead(bySlotHeadOf: slotHead.inputSize, hidden: hidden) ? slotHead.inputSize : hidden
        for (name, head, width) in [("intentHead", intentHead, pooling.outputSize), ("slotHead", slotHead, slotWidth)] {
            guard !modes.isEmpty, head.inputSize == width, head.bias != nil, head.outputSize >= 2 else {
                throw TrainingSettingError(setting: name, value: "a [\(head.outputSize), \(head.inputSize)] layer\(head.bias == nil ? " without bias" : "")",
                                           requirement: "a layer with bias from \(width) values to at least 2 classes")
            }
        }
        if let crf, crf.tagCount != slotHead.outputSize {
            throw TrainingSettingError(setting: "crf", value: "\(crf.tagCount) tags", requirement: "the slot head's \(slotHead.outputSize) tags")
        }
        // Pooling and the slot head read attended positions only: trailing padding need not be computed.
        encoder.skipsTrailingPadding = true
        self.encoder = encoder
        self.pooling = pooling
        self.intentHead = intentHead
        self.slotHead = slotHead
        self.crf = crf
    }

    /// What one forward pass computes.
    public struct Outputs {
        /// The encoder's last hidden states, [batch, sequence, hidden].
        public var hidden: Tensor<Float>
        /// The pooled sentence vectors, [batch, pooled width].
        public var pooled: Tensor<Float>
        /// [batch, intents].
        public var intentLogits: Tensor<Float>
        /// The hidden states of every word's first piece, sequence after sequence, [words, hidden].
        public var wordStates: Tensor<Float>
        /// What the slot head reads: ``wordStates``, each row followed by its word's shape features with
        /// ``usesWordShapes``, [words, slot head input].
        public var slotInputs: Tensor<Float>
        /// [words, tags], in the order of ``wordStates``.
        public var slotLogits: Tensor<Float>
    }

    /// Runs the encoder (with its ``TrainableEncoder/dropout``) and both heads on `batch`; `wordPositions`
    /// holds each sequence's first-piece positions, `wordShapes` (needed with ``usesWordShapes``) those
    /// words' shapes. Head dropout applies to the pooled vector and the word states, not to the shapes.
    /// - Throws: `ModelError` for a batch the encoder refuses, or shapes missing or not one per word.
    public func outputs(_ batch: EncoderBatch, wordPositions: [[Int]], wordShapes: [[WordShape]]? = nil,
                        headDropout: ((inout Tensor<Float>) -> Void)? = nil) throws -> Outputs {
        var shapes: [WordShape] = []
        if usesWordShapes {
            guard let wordShapes, wordShapes.map(\.count) == wordPositions.map(\.count) else {
                throw ModelError.invalidFeatureValue("wordShapes", reason: "the slot head reads a shape for each of the "
                                                     + "\(wordPositions.map(\.count)) words; got \(wordShapes.map { "\($0.map(\.count))" } ?? "none")")
            }
            shapes = wordShapes.flatMap { $0 }
        }
        let hidden = try encoder.forward(batch, workspace: try workspace(for: batch))
        var pooled = pooling(hidden, attentionMask: batch.attentionMask)
        var wordStates = gather(hidden, rows: flatRows(wordPositions, sequenceLength: batch.sequenceLength))
        if let headDropout {
            headDropout(&pooled)
            headDropout(&wordStates)
        }
        let slotInputs = usesWordShapes ? WordShape.appendingFeatures(of: shapes, to: wordStates) : wordStates
        // A batch of sequences without words has no slot logits (a GEMM of 0 rows is not asked for).
        let slotLogits = wordStates.shape[0] == 0 ? Tensor<Float>(shape: [0, slotHead.outputSize]) : slotHead(slotInputs)
        return Outputs(hidden: hidden, pooled: pooled, intentLogits: intentHead(pooled), wordStates: wordStates, slotInputs: slotInputs,
                       slotLogits: slotLogits)
    }

    /// The best tag of each word: Viterbi over each sequence's words with the CRF, else the arg max of
    /// each word's logits. `slotLogits` is [words, tags] with `wordCounts[s]` words for sequence `s`.
    public func decodeTags(_ slotLogits: Tensor<Float>, wordCounts: [Int]) -> [[Int]] {
        let tags = slotHead.outputSize, logits = slotLogits.scalars
        var first = 0
        return wordCounts.map { count in
            defer { first += count }
            return TransformerSlotTagger.bestTags(logits[(first * tags)..<((first + count) * tags)].map(Double.init), count: count,
                                                  tagCount: tags, crf: crf)
        }
    }

    /// The encoder workspace for `batch`'s shape, reused while the shape repeats.
    func workspace(for batch: EncoderBatch) throws -> EncoderTrainingWorkspace {
        try encoder.workspace(reusing: &workspace, for: batch)
    }

    /// Indices into the `[batch × sequence]` rows of the hidden states.
    func flatRows(_ wordPositions: [[Int]], sequenceLength: Int) -> [Int] {
        wordPositions.enumerated().flatMap { row, positions in positions.map { row * sequenceLength + $0 } }
    }

    /// The rows `rows` of `hidden` ([batch, sequence, width]) as [rows, width].
    func gather(_ hidden: Tensor<Float>, rows: [Int]) -> Tensor<Float> {
        let width = hidden.shape.last ?? 0
        var gathered = Tensor<Float>(shape: [rows.count, width])
        hidden.contiguous().withUnsafeBufferPointer { source in
            gathered.withUnsafeMutableBufferPointer { target in
                for (index, row) in rows.enumerated() {
                    for c in 0..<width { target[index * width + c] = source[row * width + c] }
                }
            }
        }
        return gathered
    }
}
