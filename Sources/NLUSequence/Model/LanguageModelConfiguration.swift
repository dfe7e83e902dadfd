import NLUCore
import NLUInputOutput

/// The shape and vocabulary of a ``LanguageModel``: the `config` object of its model package's
/// `manifest.json` (kind `language-model`).
///
///     {"cell": "lstm", "level": "word", "embeddingSize": 64, "hiddenSize": 128, "layers": 2,
///      "vocabulary": ["<unk>", "</s>", "the", ...], "unknownToken": "<unk>", "endToken": "</s>",
///      "lowercase": true}
public struct LanguageModelConfiguration: Codable, Sendable, Equatable {
    /// Whether the model reads words or characters.
    public enum Level: String, Codable, Sendable, CaseIterable {
        /// Tokens are words, numbers and punctuation from ``NLUText/WordTokenizer``.
        case word
        /// Tokens are single characters (grapheme clusters).
        case character
    }

    /// `lstm` or `gru`.
    public var cell: RecurrentCell
    /// `word` or `character`.
    public var level: Level
    /// Features of each token embedding (`embedding.weight` is `[vocabulary, embeddingSize]`).
    public var embeddingSize: Int
    /// Features of each recurrent layer's state.
    public var hiddenSize: Int
    /// Stacked recurrent layers.
    public var layers: Int
    /// The tokens; a token's id is its index.
    public var vocabulary: [String]
    /// The token that stands for every token outside the vocabulary.
    public var unknownToken: String
    /// The token that ends a line or sentence; generation stops when the model predicts it.
    public var endToken: String
    /// Whether text is lowercased before it is looked up.
    public var lowercase: Bool

    /// A configuration; `endToken` defaults to `</s>` and `unknownToken` to `<unk>`.
    public init(cell: RecurrentCell, level: Level, embeddingSize: Int, hiddenSize: Int, layers: Int,
                vocabulary: [String], unknownToken: String = "<unk>", endToken: String = "</s>", lowercase: Bool = true) {
        self.cell = cell
        self.level = level
        self.embeddingSize = embeddingSize
        self.hiddenSize = hiddenSize
        self.layers = layers
        self.vocabulary = vocabulary
        self.unknownToken = unknownToken
        self.endToken = endToken
        self.lowercase = lowercase
    }

    enum CodingKeys: String, CodingKey {
        case cell, level, embeddingSize, hiddenSize, layers, vocabulary, unknownToken, endToken, lowercase
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cell = try container.decode(RecurrentCell.self, forKey: .cell)
        level = try container.decode(Level.self, forKey: .level)
        embeddingSize = try container.decode(Int.self, forKey: .embeddingSize)
        hiddenSize = try container.decode(Int.self, forKey: .hiddenSize)
        layers = try container.decode(Int.self, forKey: .layers)
        vocabulary = try container.decode([String].self, forKey: .vocabulary)
        unknownToken = try container.decodeIfPresent(String.self, forKey: .unknownToken) ?? "<unk>"
        endToken = try container.decodeIfPresent(String.self, forKey: .endToken) ?? "</s>"
        lowercase = try container.decodeIfPresent(Bool.self, forKey: .lowercase) ?? false
    }

    /// The state tensor's shape for one sequence: `[layers, 2, hiddenSize]` for an LSTM (h, c),
    /// `[layers, 1, hiddenSize]` for a GRU (h).
    public var stateShape: [Int] { [layers, cell.stateComponentCount, hiddenSize] }

    /// The accepted sizes (also the ranges of `nlu lm train --embedding/--hidden/--layers`).
    public static let embeddingSizeRange = 1...16_384
    public static let hiddenSizeRange = 1...16_384
    public static let layersRange = 1...64

    /// The number of weights this shape holds (embedding, recurrent layers, decoder), nil on overflow.
    public var parameterCount: Int? {
        let gates = cell == .lstm ? 4 : 3
        let vocabularySize = vocabulary.count
        guard let embedding = InputLimits.product([vocabularySize, embeddingSize]),
              let first = InputLimits.product([gates, hiddenSize, embeddingSize + hiddenSize + 2]),
              let rest = InputLimits.product([gates, hiddenSize, 2 * hiddenSize + 2, layers - 1]),
              let decoder = InputLimits.product([vocabularySize, hiddenSize + 1]) else { return nil }
        let (sum, overflow) = embedding.addingReportingOverflow(first + rest + decoder)
        return overflow ? nil : sum
    }

    /// Checks sizes (ranges, and the weights against memory: training holds four copies) and vocabulary.
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` saying which field is wrong.
    public func validate() throws {
        func fail(_ message: String) -> LanguageModelError { .invalidConfiguration(message) }
        for (name, value, range) in [("embeddingSize", embeddingSize, Self.embeddingSizeRange),
                                     ("hiddenSize", hiddenSize, Self.hiddenSizeRange), ("layers", layers, Self.layersRange)] {
            guard range.contains(value) else {
                throw fail("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            }
        }
        do {
            // Weights, gradients and Adam's two moments while training.
            try InputLimits.checkMemory(elements: parameterCount.flatMap { InputLimits.product([$0, 4]) },
                                        what: "the model's weights (\(vocabulary.count) tokens, \(layers) layers of \(hiddenSize))")
        } catch let error as OutOfRangeError {
            throw fail(error.description)
        }
        guard !vocabulary.isEmpty else { throw fail("vocabulary is empty") }
        guard vocabulary.contains(unknownToken) else { throw fail("unknownToken '\(unknownToken)' is not in the vocabulary") }
        guard vocabulary.contains(endToken) else { throw fail("endToken '\(endToken)' is not in the vocabulary") }
        var seen = Set<String>()
        for token in vocabulary where !seen.insert(token).inserted {
            throw fail("vocabulary lists '\(token)' twice")
        }
    }
}
