import Foundation
import NLUCore

/// A BERT-family encoder without a task head, loaded from a checkpoint directory: `BertModel`,
/// `DistilBertModel`, or the `Transformer` module of a sentence-transformers model. Tasks that build
/// on hidden states (sentence embeddings, retrieval) start here.
///
///     let encoder = try EncoderModel(modelDirectory: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[101, 7592, 102]], padID: 0))
///     print(states.shape)   // [1, 3, 384]
public struct EncoderModel: Sendable {
    /// The checkpoint's architecture hyper-parameters.
    public let configuration: BertConfiguration
    /// The arithmetic of the dense layers (``Precision/int8``: quantized at load).
    public let precision: Precision
    package let encoder: any WorkspaceEncoder
    /// Keeps the memory map alive for the embeddings and norms, used in place.
    let weightsFile: SafeTensors

    /// Loads `config.json` and `model.safetensors` from `modelDirectory`, the dense layers at `precision`.
    /// - Throws: ``CheckpointError`` naming the file, field or tensor at fault (a task head left in the
    ///   file is reported as unused tensors).
    public init(modelDirectory: URL, precision: Precision = .f32) throws {
        let checkpoint = try CheckpointDirectory(modelDirectory)
        try self.init(configuration: checkpoint.configuration(), weights: checkpoint.weights(), precision: precision)
    }

    /// Builds the encoder from a configuration and an open safetensors file, checking that every
    /// tensor is present with the right shape and that none is left over (pooler weights aside).
    public init(configuration: BertConfiguration, weights: SafeTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        self.precision = precision
        weightsFile = weights
        let tensors = CheckpointTensors(file: weights, family: configuration.architecture.family)
        encoder = try makeEncoder(configuration: configuration, tensors: tensors, precision: precision)
        try tensors.verifyAllUsed()
        tensors.releaseResidentPages()
    }

    /// The last layer's hidden states, shape [batch, sequence, hidden].
    public func hiddenStates(_ batch: EncoderBatch) throws -> Tensor<Float> {
        try encoder.hiddenStates(batch)
    }

    /// Runs the encoder and leaves the last hidden states in the returned workspace, for callers in
    /// the package that reduce them in place (pooling) instead of copying them out.
    package func encode(_ batch: EncoderBatch) throws -> EncoderWorkspace {
        try encoder.encode(batch)
    }
}
