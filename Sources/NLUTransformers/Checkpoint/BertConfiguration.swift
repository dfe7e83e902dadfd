import Foundation

/// The architecture hyper-parameters of a BERT-family encoder checkpoint (BERT, DistilBERT, MPNet,
/// RoBERTa, XLM-R), decoded from its `config.json`: `model_type` (else `architectures`) picks the
/// ``EncoderFamily`` in ``EncoderFamilies/byModelType``, whose ``ConfigurationKeys`` say which keys
/// hold each size (BERT's `hidden_size`/`num_hidden_layers`/..., DistilBERT's `dim`/`n_layers`/...)
/// and the defaults `transformers` uses for missing fields. The one configuration type of the encoder core.
///
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(contentsOf: configURL))
///     print(config.architecture, config.hiddenSize, config.layerCount)   // bert 768 12
public struct BertConfiguration: Decodable, Sendable, Equatable {
    /// Which encoder family the checkpoint holds: one constant per family (`.bert`, `.distilbert`,
    /// `.mpnet`, `.roberta`), each declared in its family's file; printed as its name.
    ///
    ///     if config.architecture == .roberta { print(config.firstPositionID) }   // 2
    public struct Architecture: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The family's name (`bert`, `distilbert`, `mpnet`, `roberta`), as listings and model metadata show it.
        public let rawValue: String
        /// The family that reads the configuration and builds the encoder.
        package let family: any EncoderFamily.Type

        /// The architecture of `family`.
        package init(_ family: any EncoderFamily.Type) {
            rawValue = family.name
            self.family = family
        }

        /// The architecture named `rawValue`, or nil when no registered family has that name.
        public init?(rawValue: String) {
            guard let family = EncoderFamilies.family(named: rawValue) else { return nil }
            self.init(family)
        }

        public static func == (left: Self, right: Self) -> Bool { left.rawValue == right.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
        public var description: String { rawValue }
    }

    /// The feed-forward activation (`hidden_act` / `activation`).
    public enum Activation: String, Sendable, Equatable {
        /// The exact erf form (`gelu`).
        case gelu
        /// The tanh approximation (`gelu_new`, `gelu_pytorch_tanh`).
        case geluTanh
        case relu
    }

    /// The encoder family (`model_type`, else `architectures`).
    public var architecture: Architecture
    /// `vocab_size`.
    public var vocabularySize: Int
    /// `hidden_size` / `dim`.
    public var hiddenSize: Int
    /// `num_hidden_layers` / `n_layers`.
    public var layerCount: Int
    /// `num_attention_heads` / `n_heads`.
    public var attentionHeadCount: Int
    /// `intermediate_size` / `hidden_dim`.
    public var intermediateSize: Int
    /// `hidden_act` / `activation`.
    public var activation: Activation
    /// `max_position_embeddings`: the longest sequence the model takes.
    public var maxPositionEmbeddings: Int
    /// Number of token types (segment ids); 0 for DistilBERT, which has no token-type embeddings.
    public var typeVocabularySize: Int
    /// `layer_norm_eps` (DistilBERT: 1e-12).
    public var layerNormEpsilon: Float
    /// MPNet's `relative_attention_num_buckets`: rows of the relative position bias table; 0 for
    /// architectures without one.
    public var relativeAttentionBucketCount: Int
    /// The token id whose position is the padding index, for architectures whose position ids
    /// count from after it (RoBERTa: `pad_token_id`, 1 in every released checkpoint; MPNet: 1, fixed).
    public var paddingIndex: Int

    /// Whether position ids count from after the padding index (MPNet, RoBERTa) instead of from 0.
    public var positionsFollowPadding: Bool { architecture.family.embedding.positions == .afterPaddingIndex }

    /// The position id of a sequence's first token: 0, or for MPNet and RoBERTa `padding_idx + 1`
    /// (2), since their position ids count up from after the padding index.
    public var firstPositionID: Int { positionsFollowPadding ? paddingIndex + 1 : 0 }

    /// The most tokens one sequence can hold: the position table's rows after `firstPositionID`
    /// (all-mpnet-base-v2: 514 rows, 512 tokens).
    public var maxSequenceLength: Int { maxPositionEmbeddings - firstPositionID }

    /// The size of each attention head.
    public var headSize: Int { hiddenSize / attentionHeadCount }

    /// Builds a configuration directly (for tests and benchmarks). Omitted token types and relative
    /// attention buckets take the family's defaults; a family that fixes its padding index (MPNet) ignores
    /// `paddingIndex`.
    ///
    ///     let tiny = BertConfiguration(architecture: .bert, vocabularySize: 100, hiddenSize: 32, layerCount: 2,
    ///                                  attentionHeadCount: 4, intermediateSize: 64)
    public init(architecture: Architecture, vocabularySize: Int, hiddenSize: Int, layerCount: Int,
                attentionHeadCount: Int, intermediateSize: Int, activation: Activation = .gelu,
                maxPositionEmbeddings: Int = 512, typeVocabularySize: Int? = nil, layerNormEpsilon: Float = 1e-12,
                relativeAttentionBucketCount: Int? = nil, paddingIndex: Int = 1) {
        let family = architecture.family
        self.architecture = architecture
        self.vocabularySize = vocabularySize
        self.hiddenSize = hiddenSize
        self.layerCount = layerCount
        self.attentionHeadCount = attentionHeadCount
        self.intermediateSize = intermediateSize
        self.activation = activation
        self.maxPositionEmbeddings = maxPositionEmbeddings
        self.typeVocabularySize = typeVocabularySize ?? family.embedding.tokenTypes
        let fixedPadding = family.configurationKeys.paddingIndex
        self.paddingIndex = family.embedding.positions == .afterPaddingIndex && fixedPadding.key == nil
            ? fixedPadding.defaultValue : paddingIndex
        self.layerNormEpsilon = layerNormEpsilon
        self.relativeAttentionBucketCount = relativeAttentionBucketCount
            ?? family.configurationKeys.relativeAttentionBucketCount.defaultValue
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The largest sizes a configuration may give, far above any published encoder (BERT-large: 24
    /// layers, hidden 1024; XLM-R: 250,002 tokens; long-context encoders: 8,192-32,768 positions):
    /// they bound the loops and allocations a size drives (one per layer, tables of size × hidden)
    /// before the checkpoint's tensors are read, so that a corrupt `num_hidden_layers` of 2^63 is an
    /// error naming the field and not an allocation of exabytes.
    public static let sizeLimits = (vocabulary: 1 << 24, hidden: 1 << 16, layers: 1 << 10, heads: 1 << 10,
                                    intermediate: 1 << 18, positions: 1 << 20, smallTables: 1 << 16)

    /// Decodes `config.json` with the keys and defaults of the family its `model_type` names.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        // A key that is absent or null takes the family's default.
        func value<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
            guard container.contains(Key(key)), try !container.decodeNil(forKey: Key(key)) else { return nil }
            return try container.decode(T.self, forKey: Key(key))
        }
        func read<T>(_ field: ConfigurationKeys.Field<T>) throws -> T {
            guard let key = field.key else { return field.defaultValue }
            return try value(T.self, key) ?? field.defaultValue
        }
        let family = try EncoderFamilies.family(modelType: value(String.self, "model_type"),
                                                architectures: value([String].self, "architectures") ?? [])
        let keys = family.configurationKeys
        architecture = Architecture(family)
        vocabularySize = try read(keys.vocabularySize)
        hiddenSize = try read(keys.hiddenSize)
        layerCount = try read(keys.layerCount)
        attentionHeadCount = try read(keys.attentionHeadCount)
        intermediateSize = try read(keys.intermediateSize)
        maxPositionEmbeddings = try read(keys.maxPositionEmbeddings)
        typeVocabularySize = try read(keys.typeVocabularySize)
        paddingIndex = try read(keys.paddingIndex)
        layerNormEpsilon = Float(try read(keys.layerNormEpsilon))
        relativeAttentionBucketCount = try read(keys.relativeAttentionBucketCount)
        let activationName = try read(keys.activation)
        switch activationName {
        case "gelu": activation = .gelu
        case "gelu_new", "gelu_pytorch_tanh", "gelu_fast": activation = .geluTanh
        case "relu": activation = .relu
        default: throw BertConfigurationError.unsupportedValue(field: keys.activation.key ?? "activation",
                                                              value: activationName, supported: "gelu, gelu_new, gelu_pytorch_tanh, relu")
        }
        for (key, required) in keys.requiredValues {
            if let found = try value(String.self, key), found != required {
                throw BertConfigurationError.unsupportedValue(field: key, value: found, supported: required)
            }
        }
        try validate()
    }

    /// Checks that the sizes are positive and within ``sizeLimits``, and that the hidden size splits
    /// evenly into heads.
    public func validate() throws {
        let sizes: [(String, Int, Int)] = [("vocab_size", vocabularySize, Self.sizeLimits.vocabulary),
                                           ("hidden size", hiddenSize, Self.sizeLimits.hidden),
                                           ("layer count", layerCount, Self.sizeLimits.layers),
                                           ("attention heads", attentionHeadCount, Self.sizeLimits.heads),
                                           ("intermediate size", intermediateSize, Self.sizeLimits.intermediate),
                                           ("max_position_embeddings", maxPositionEmbeddings, Self.sizeLimits.positions)]
        for (field, size, limit) in sizes where size <= 0 || size > limit {
            throw BertConfigurationError.unsupportedValue(field: field, value: String(size),
                                                          supported: "a positive number up to \(limit)")
        }
        for (field, size) in [("type_vocab_size", typeVocabularySize), ("relative_attention_num_buckets", relativeAttentionBucketCount)]
        where size < 0 || size > Self.sizeLimits.smallTables {
            throw BertConfigurationError.unsupportedValue(field: field, value: String(size),
                                                          supported: "0 up to \(Self.sizeLimits.smallTables)")
        }
        if positionsFollowPadding {
            guard paddingIndex >= 0, paddingIndex < maxPositionEmbeddings - 1 else {
                throw BertConfigurationError.unsupportedValue(
                    field: "max_position_embeddings", value: String(maxPositionEmbeddings),
                    supported: "more than \(firstPositionID) (position ids start after the padding index \(paddingIndex))")
            }
        }
        try architecture.family.validate(self)
        // Normalization divides by sqrt(variance + epsilon): a negative epsilon makes NaN embeddings and one past
        // Float's range (1e39) makes every embedding the bias alone, both without an error.
        guard layerNormEpsilon.isFinite, (0...1).contains(layerNormEpsilon) else {
            throw BertConfigurationError.unsupportedValue(field: "layer_norm_eps", value: String(layerNormEpsilon),
                                                          supported: "a number from 0 to 1")
        }
        if hiddenSize % attentionHeadCount != 0 {
            throw BertConfigurationError.unsupportedValue(
                field: "hidden size", value: String(hiddenSize),
                supported: "a multiple of the attention head count \(attentionHeadCount)")
        }
    }
}

/// Why a `config.json` cannot be used as an encoder configuration: a `model_type` or `architectures` no
/// registered family answers to, or a value out of range; each case names the field or value.
public enum BertConfigurationError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case unsupportedModelType(String)
    case unknownArchitecture([String])
    case unsupportedValue(field: String, value: String, supported: String)

    public var description: String {
        switch self {
        case let .unsupportedModelType(type):
            return "unsupported model_type \"\(type)\" (supported: \(EncoderFamilies.modelTypes.joined(separator: ", ")))"
        case let .unknownArchitecture(names):
            return "config.json has no model_type and its architectures \(names) name none of \(EncoderFamilies.displayNames.joined(separator: ", "))"
        case let .unsupportedValue(field, value, supported):
            return "unsupported \(field) \"\(value)\" (expected \(supported))"
        }
    }

    public var errorDescription: String? { description }
}
