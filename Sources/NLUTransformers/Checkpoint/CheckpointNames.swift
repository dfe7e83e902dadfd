import NLUCore

/// The checkpoint-name table: how each architecture's tensors are spelled in a Hugging Face
/// checkpoint. A task model (`BertForQuestionAnswering`) stores the encoder under the prefix, a bare
/// encoder (`BertModel`, the `Transformer` module of a sentence-transformers model) without it;
/// ``CheckpointTensors`` accepts both. MiniLM- and paraphrase-style sentence-transformers models are
/// BERT checkpoints (`model_type: bert`) with other sizes, so they need no entry of their own;
/// MPNet (all-mpnet-base-v2) has its own names (`mpnet.encoder.layer.N.attention.attn.q`, ...);
/// RoBERTa and XLM-R use BERT's names under `roberta.` and run in ``BertEncoder``.
extension BertConfiguration.Architecture {
    /// The prefix a task model puts before the encoder's tensor names.
    package var checkpointPrefix: String {
        switch self {
        case .bert: "bert."
        case .distilbert: "distilbert."
        case .mpnet: "mpnet."
        case .roberta: "roberta."
        }
    }
}

/// Builds the encoder that `configuration` describes from `tensors`, checking every tensor's
/// presence and shape. The caller loads its head from the same `tensors`, then calls
/// ``CheckpointTensors/verifyAllUsed()``. The dense layers run at `precision`.
package func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                         precision: Precision = .f32) throws -> any WorkspaceEncoder {
    switch configuration.architecture {
    case .bert: try BertEncoder(configuration: configuration, checkpoint: tensors, precision: precision)
    case .distilbert: try DistilBertEncoder(configuration: configuration, checkpoint: tensors, precision: precision)
    case .mpnet: try MPNetEncoder(configuration: configuration, checkpoint: tensors, precision: precision)
    case .roberta: try BertEncoder(configuration: configuration, checkpoint: tensors, precision: precision)
    }
}
