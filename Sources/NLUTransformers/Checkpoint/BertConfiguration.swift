import Foundation

/// The architecture hyper-parameters of a BERT, DistilBERT, MPNet, RoBERTa or XLM-R checkpoint, decoded from its
/// `config.json` (both key schemes: BERT's and MPNet's `hidden_size`/`num_hidden_layers`/... and
/// DistilBERT's `dim`/`n_layers`/...), with the defaults `transformers` uses for missing fields.
///
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(contentsOf: configURL))
///     print(config.architecture, config.hiddenSize, config.layerCount)   // bert 768 12
public struct BertConfiguration: Decodable, Sendable, Equatable {
    /// Which encoder family the checkpoint holds.
    public enum Architecture: String, Sendable, Equatable {
        case bert, distilbert
        /// MPNet (`all-mpnet-base-v2`): BERT's block shape, RoBERTa-style position ids, no token
        /// types, and a relative position bias added to every layer's attention scores.
        case mpnet
        /// RoBERTa and XLM-RoBERTa (`all-distilroberta-v1`, `paraphrase-multilingual-mpnet-base-v2`):
        /// BERT's blocks and tensor names under `roberta.`, position ids counted from after the
        /// padding index (`pad_token_id`), one token type.
        case roberta
    }

    /// The feed-forward activation (`hidden_act` / `activation`).
    public enum Activation: String, Sendable, Equatable {
        /// The exact erf form (`gelu`).
        case gelu
        /// The tanh approximation (`gelu_new`, `gelu_pytorch_tanh`).
        case geluTanh
        case relu
    }

    /// BERT or DistilBERT (`model_type`, else `architectures`).
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
    public var positionsFollowPadding: Bool { architecture == .mpnet || architecture == .roberta }

    /// The position id of a sequence's first token: 0, or for MPNet and RoBERTa `padding_idx + 1`
    /// (2), since their position ids count up from after the padding index.
    public var firstPositionID: Int { positionsFollowPadding ? paddingIndex + 1 : 0 }

    /// The most tokens one sequence can hold: the position table's rows after `firstPositionID`
    /// (all-mpnet-base-v2: 514 rows, 512 tokens).
    public var maxSequenceLength: Int { maxPositionEmbeddings - firstPositionID }

    /// The size of each attention head.
    public var headSize: Int { hiddenSize / attentionHeadCount }

    /// Builds a configuration directly (for tests and benchmarks).
    public init(architecture: Architecture, vocabularySize: Int, hiddenSize: Int, layerCount: Int,
                attentionHeadCount: Int, intermediateSize: Int, activation: Activation = .gelu,
                maxPositionEmbeddings: Int = 512, typeVocabularySize: Int? = nil, layerNormEpsilon: Float = 1e-12,
                relativeAttentionBucketCount: Int? = nil, paddingIndex: Int = 1) {
        self.architecture = architecture
        self.vocabularySize = vocabularySize
        self.hiddenSize = hiddenSize
        self.layerCount = layerCount
        self.attentionHeadCount = attentionHeadCount
        self.intermediateSize = intermediateSize
        self.activation = activation
        self.maxPositionEmbeddings = maxPositionEmbeddings
        self.typeVocabularySize = typeVocabularySize ?? (architecture == .bert ? 2 : architecture == .roberta ? 1 : 0)
        self.paddingIndex = architecture == .mpnet ? MPNetPositions.paddingIndex : paddingIndex
        self.layerNormEpsilon = layerNormEpsilon
        self.relativeAttentionBucketCount = relativeAttentionBucketCount
            ?? (architecture == .mpnet ? MPNetPositions.bucketCount : 0)
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

    /// Decodes `config.json`, applying `transformers`' defaults.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func value<T: Decodable>(_ type: T.Type, _ keys: String...) throws -> T? {
            for key in keys where container.contains(Key(key)) {
                if try container.decodeNil(forKey: Key(key)) { continue }
                return try container.decode(T.self, forKey: Key(key))
            }
            return nil
        }
        let modelType = try value(String.self, "model_type")
        let architectures = try value([String].self, "architectures") ?? []
        switch modelType {
        case "bert": architecture = .bert
        case "distilbert": architecture = .distilbert
        case "mpnet": architecture = .mpnet
        case "roberta", "xlm-roberta": architecture = .roberta
        case nil:
            if architectures.contains(where: { $0.hasPrefix("DistilBert") }) {
                architecture = .distilbert
            } else if architectures.contains(where: { $0.hasPrefix("Bert") }) {
                architecture = .bert
            } else if architectures.contains(where: { $0.hasPrefix("MPNet") }) {
                architecture = .mpnet
            } else if architectures.contains(where: { $0.hasPrefix("Roberta") || $0.hasPrefix("XLMRoberta") }) {
                architecture = .roberta
            } else {
                throw BertConfigurationError.unknownArchitecture(architectures)
            }
        case let other?:
            throw BertConfigurationError.unsupportedModelType(other)
        }
        // MPNet spells its sizes as BERT does (MPNetConfig's defaults: vocabulary 30527, 514 positions).
        // RoBERTa too (RobertaConfig's defaults: vocabulary 50265, 514 positions, 2 token types).
        let isMPNet = architecture == .mpnet
        let isRoberta = architecture == .roberta
        let isBert = architecture == .bert || isMPNet || isRoberta
        vocabularySize = try value(Int.self, "vocab_size") ?? (isMPNet ? 30527 : isRoberta ? 50265 : 30522)
        hiddenSize = try value(Int.self, isBert ? "hidden_size" : "dim") ?? 768
        layerCount = try value(Int.self, isBert ? "num_hidden_layers" : "n_layers") ?? (isBert ? 12 : 6)
        attentionHeadCount = try value(Int.self, isBert ? "num_attention_heads" : "n_heads") ?? 12
        intermediateSize = try value(Int.self, isBert ? "intermediate_size" : "hidden_dim") ?? 3072
        maxPositionEmbeddings = try value(Int.self, "max_position_embeddings") ?? (isMPNet || isRoberta ? 514 : 512)
        typeVocabularySize = architecture == .bert || isRoberta ? (try value(Int.self, "type_vocab_size") ?? 2) : 0
        // transformers' RobertaEmbeddings take padding_idx from pad_token_id; MPNet fixes it at 1.
        paddingIndex = isRoberta ? try value(Int.self, "pad_token_id") ?? 1 : MPNetPositions.paddingIndex
        layerNormEpsilon = isBert ? Float(try value(Double.self, "layer_norm_eps") ?? 1e-12) : 1e-12
        relativeAttentionBucketCount = isMPNet
            ? try value(Int.self, "relative_attention_num_buckets") ?? MPNetPositions.bucketCount : 0
        let activationName = try value(String.self, isBert ? "hidden_act" : "activation") ?? "gelu"
        switch activationName {
        case "gelu": activation = .gelu
        case "gelu_new", "gelu_pytorch_tanh", "gelu_fast": activation = .geluTanh
        case "relu": activation = .relu
        default: throw BertConfigurationError.unsupportedValue(field: isBert ? "hidden_act" : "activation",
                                                              value: activationName, supported: "gelu, gelu_new, gelu_pytorch_tanh, relu")
        }
        if architecture == .bert || isRoberta, let kind = try value(String.self, "position_embedding_type"), kind != "absolute" {
            throw BertConfigurationError.unsupportedValue(field: "position_embedding_type", value: kind, supported: "absolute")
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
        if architecture == .roberta && typeVocabularySize < 1 {
            throw BertConfigurationError.unsupportedValue(field: "type_vocab_size", value: String(typeVocabularySize), supported: "at least 1")
        }
        if architecture == .mpnet {
            // transformers' MPNet always looks up MPNetPositions.bucketCount (32) buckets, whatever
            // the config says: a smaller table would be indexed out of range.
            guard relativeAttentionBucketCount >= MPNetPositions.bucketCount else {
                throw BertConfigurationError.unsupportedValue(
                    field: "relative_attention_num_buckets", value: String(relativeAttentionBucketCount),
                    supported: "at least \(MPNetPositions.bucketCount), the buckets MPNet's attention bias uses")
            }
        }
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

/// Why a `config.json` cannot be used as a BERT / DistilBERT / MPNet encoder configuration.
public enum BertConfigurationError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case unsupportedModelType(String)
    case unknownArchitecture([String])
    case unsupportedValue(field: String, value: String, supported: String)

    public var description: String {
        switch self {
        case let .unsupportedModelType(type):
            return "unsupported model_type \"\(type)\" (supported: bert, distilbert, mpnet, roberta, xlm-roberta)"
        case let .unknownArchitecture(names):
            return "config.json has no model_type and its architectures \(names) name none of BERT, DistilBERT, MPNet, RoBERTa, XLM-RoBERTa"
        case let .unsupportedValue(field, value, supported):
            return "unsupported \(field) \"\(value)\" (expected \(supported))"
        }
    }

    public var errorDescription: String? { description }
}
