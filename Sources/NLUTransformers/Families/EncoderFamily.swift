import NLUCore

/// One family of encoder checkpoints (BERT, RoBERTa, DistilBERT, MPNet, ...): everything that differs
/// between families lives in one type conforming to this, in one file of `Families/`, and
/// ``EncoderFamilies/byModelType`` picks it from `config.json`. The encoder core (``BertConfiguration``,
/// ``TransformerBlock``, the kernels) and the loaders of the tasks built on it know no family by name.
///
/// A family owns its `config.json` keys and defaults (``configurationKeys``, decoded into the one shared
/// ``BertConfiguration``), its tensor names and model prefixes (``tensorNames``), its embedding step
/// (``embedding``: where position ids start, token types or not) and how its encoder is built
/// (``makeEncoder(configuration:tensors:precision:)``).
///
///     enum ElectraFamily: EncoderFamily {
///         static let name = "electra"
///         static let displayNames = ["ELECTRA"]
///         static let architectureClassPrefixes = ["Electra"]
///         static let configurationKeys = BertFamily.configurationKeys
///         static let tensorNames = EncoderTensorNames(modelPrefixes: ["electra.", ""], ...)
///         static let embedding = BertFamily.embedding   // and BertEncoder, the default encoder
///     }
package protocol EncoderFamily: Sendable {
    /// The family's name in listings and model metadata (`bert`): ``BertConfiguration/Architecture/rawValue``.
    static var name: String { get }
    /// How messages name the models of the family (`RoBERTa`, `XLM-RoBERTa`).
    static var displayNames: [String] { get }
    /// The starts of the class names in `config.json`'s `architectures` (`BertForQuestionAnswering`:
    /// `Bert`) that pick the family when the file has no `model_type`.
    static var architectureClassPrefixes: [String] { get }
    /// Where the family's `config.json` keeps each hyper-parameter, and `transformers`' defaults.
    static var configurationKeys: ConfigurationKeys { get }
    /// How the family's checkpoints spell the encoder's tensors.
    static var tensorNames: EncoderTensorNames { get }
    /// How the family turns token ids into the first hidden states.
    static var embedding: EmbeddingStep { get }
    /// Whether training passes the attention block's output projection through hidden dropout before its
    /// residual (BERT's `BertSelfOutput`, MPNet; DistilBERT's `out_lin` goes straight to the residual).
    static var dropsOutAttentionOutput: Bool { get }
    /// Checks what the shared ``BertConfiguration/validate()`` cannot know about the family.
    static func validate(_ configuration: BertConfiguration) throws
    /// Builds the family's encoder from `tensors` (a view made by ``CheckpointTensors/init(file:family:)``),
    /// checking every tensor's presence and shape, its dense layers at `precision`. By default a
    /// ``BertEncoder`` (BERT's blocks; token types when ``tensorNames`` has them, positions as ``embedding`` says).
    static func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                            precision: Precision) throws -> any WorkspaceEncoder
}

extension EncoderFamily {
    /// BERT's block shape: dropout after the attention output projection.
    package static var dropsOutAttentionOutput: Bool { true }

    /// Most families need no check beyond the shared ones.
    package static func validate(_ configuration: BertConfiguration) throws {}

    /// BERT's blocks and embedding step serve most families (BERT, RoBERTa, XLM-R).
    package static func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                                    precision: Precision) throws -> any WorkspaceEncoder {
        try BertEncoder(configuration: configuration, checkpoint: tensors, names: tensorNames, precision: precision)
    }
}
