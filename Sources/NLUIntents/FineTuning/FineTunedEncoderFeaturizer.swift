import Foundation
import NLUCore
import NLUEmbeddings
import NLUText
import NLUTransformers
import NLUInputOutput

/// The sentence features of an encoder fine-tuned in this process: each text tokenized as the
/// checkpoint tokenizes it, run through the trained encoder (no dropout) and pooled, the vector
/// the intent head was trained on. It writes the encoder into the model package it is saved with
/// (``PackagedSentenceFeaturizer``); a package loaded again gets its features from that folder
/// through NLUPipelines' sentence-transformers featurizer, which computes the same vectors. For a
/// joint intent + slot model it also gives the hidden states the slot head reads (``TokenStateFeaturizer``).
///
///     let classifier = try IntentClassifier.fineTune(on: dataset, checkpoint: url)
///     classifier.sentenceFeaturizer?.features(for: ["play some jazz"])   // [[pooled vector]]
public final class FineTunedEncoderFeaturizer: PackagedSentenceFeaturizer, TokenStateFeaturizer, @unchecked Sendable {
    public let reference: SentenceFeaturizerReference
    /// The checkpoint the encoder was fine-tuned from: its configuration, tokenizer and
    /// sentence-transformers modules are copied from there when the encoder is saved.
    public let source: URL
    private let encoder: TrainableEncoder
    private let pooling: TokenPooling
    private let tokenIDs: @Sendable (String) -> [Int32]
    private let padID: Int32
    /// Whether each pooled vector is scaled to unit length (a few-shot model's features, as its head saw them).
    private var normalizes: Bool { reference.normalized == true }
    /// The checkpoint's tokenizer.
    public let tokenizer: any EncoderTokenizer
    /// The most tokens per text, special tokens included (the checkpoint's sentence-transformers limit).
    public let maxSequenceLength: Int
    /// The encoder keeps one batch's activations at a time: one caller at a time.
    private let lock = NSLock()
    /// Texts per encoder pass.
    private static let batchSize = 32

    /// A featurizer over `encoder` (its dropout turned off) pooled by `pooling`, tokenizing as
    /// `embedder` (the checkpoint's sentence-transformers view) does.
    init(reference: SentenceFeaturizerReference, source: URL, encoder: TrainableEncoder, pooling: TokenPooling, embedder: SentenceEmbedder) {
        encoder.dropout = nil
        encoder.skipsTrailingPadding = true   // pooling reads attended positions only
        self.reference = reference
        self.source = source
        self.encoder = encoder
        self.pooling = pooling
        tokenIDs = { embedder.tokenIDs($0) }
        padID = embedder.tokenizer.padID
        tokenizer = embedder.tokenizer
        maxSequenceLength = embedder.maxSequenceLength
    }

    public var hiddenSize: Int { encoder.configuration.hiddenSize }

    public func pooledAndTokenStates(text: String, tokenIDs: [Int32], positions: [Int]) -> (pooled: [Float], states: [[Float]]) {
        lock.lock()
        defer { lock.unlock() }
        do {
            let batch = try EncoderBatch(tokenIDs: [tokenIDs], padID: padID)
            let hidden = try encoder.forward(batch, workspace: encoder.makeWorkspace(batchSize: 1, sequenceLength: batch.sequenceLength))
            let pooled = pooling(hidden, attentionMask: batch.attentionMask).scalars
            let width = hiddenSize, states = hidden.contiguous().scalars
            return (pooled, positions.map { Array(states[($0 * width)..<(($0 + 1) * width)]) })
        } catch {
            // Unreachable: the ids come from the model's own tokenizer, cut to its length.
            preconditionFailure("the fine-tuned encoder refused its own tokens: \(error)")
        }
    }

    public func features(for texts: [String]) -> [[Float]] {
        lock.lock()
        defer { lock.unlock() }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let end = min(start + Self.batchSize, texts.count)
            do {
                let batch = try EncoderBatch(tokenIDs: texts[start..<end].map(tokenIDs), padID: padID)
                let hidden = try encoder.forward(batch, workspace: encoder.makeWorkspace(batchSize: batch.batchSize,
                                                                                         sequenceLength: batch.sequenceLength))
                let pooled = normalizes ? L2Normalization()(pooling(hidden, attentionMask: batch.attentionMask))
                    : pooling(hidden, attentionMask: batch.attentionMask)
                let width = pooled.shape[1]
                let scalars = pooled.scalars
                for row in 0..<batch.batchSize { vectors.append(Array(scalars[row * width..<(row + 1) * width])) }
            } catch {
                // Unreachable: the ids come from the model's own tokenizer, cut to its length, which
                // training already ran through this encoder.
                preconditionFailure("the fine-tuned encoder refused its own tokens: \(error)")
            }
            start = end
        }
        return vectors
    }

    /// Writes the encoder in the Hugging Face / sentence-transformers layout of ``source``, keeping
    /// of its sentence-transformers modules only the Transformer and Pooling ones: the folder then
    /// computes the pooled vector the head reads, in NLUKit as in sentence-transformers (a `Dense`
    /// or `Normalize` module after pooling was not part of training).
    public func writeModel(to folder: URL) throws {
        lock.lock()
        defer { lock.unlock() }
        try encoder.save(to: folder, source: source)
        let modulesFile = folder.appendingPathComponent("modules.json")
        let data: Data
        do { data = try InputFile.readModelFile(modulesFile) } catch let error as InputReadError where error.isMissing { return }
        guard let modules = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw ModelPackageError.writeFailed(package: folder, reason: "\(modulesFile.path) is not a list of modules")
        }
        let kept = modules.filter { module in
            let type = module["type"] as? String ?? ""
            return type.hasSuffix(".Transformer") || type.hasSuffix(".Pooling")
        }
        guard kept.count < modules.count else { return }
        for module in modules where !kept.contains(where: { ($0["path"] as? String) == (module["path"] as? String) }) {
            // A module without files (Normalize) may have no folder; the path was checked not to leave the model when saving.
            if let path = module["path"] as? String, !path.isEmpty {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))
            }
        }
        let renumbered = kept.enumerated().map { index, module in module.merging(["idx": index]) { _, new in new } }
        let written = try JSONSerialization.data(withJSONObject: renumbered, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(to: modulesFile) { try $0.write(written) }
    }
}
