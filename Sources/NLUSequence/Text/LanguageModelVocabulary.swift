/// The tokens a ``LanguageModel`` knows, with their ids, its unknown and end tokens, and the
/// vocabulary-building rule used for training (max size, minimum count, the rest → unknown).
///
///     let vocabulary = LanguageModelVocabulary.build(counting: ["the", "cat", "the"], maxSize: 10, minimumCount: 1)
///     vocabulary.id(for: "the")      // 2
///     vocabulary.id(for: "zebra")    // vocabulary.unknownID
public struct LanguageModelVocabulary: Sendable, Equatable {
    /// The tokens; a token's id is its index.
    public let tokens: [String]
    /// The id of the unknown token.
    public let unknownID: Int32
    /// The id of the end token.
    public let endID: Int32
    private let ids: [String: Int32]

    /// A vocabulary over `tokens`, which must hold `unknownToken` and `endToken` once each.
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` otherwise.
    public init(tokens: [String], unknownToken: String, endToken: String) throws {
        var ids: [String: Int32] = [:]
        for (index, token) in tokens.enumerated() {
            guard ids.updateValue(Int32(index), forKey: token) == nil else {
                throw LanguageModelError.invalidConfiguration("vocabulary lists '\(token)' twice")
            }
        }
        guard let unknownID = ids[unknownToken] else {
            throw LanguageModelError.invalidConfiguration("unknownToken '\(unknownToken)' is not in the vocabulary")
        }
        guard let endID = ids[endToken] else {
            throw LanguageModelError.invalidConfiguration("endToken '\(endToken)' is not in the vocabulary")
        }
        self.tokens = tokens
        self.ids = ids
        self.unknownID = unknownID
        self.endID = endID
    }

    /// The number of tokens.
    public var count: Int { tokens.count }

    /// The id of `token`, or nil when it is not in the vocabulary.
    public func id(for token: String) -> Int32? { ids[token] }

    /// The id of `token`, or ``unknownID``.
    public func idOrUnknown(for token: String) -> Int32 { ids[token] ?? unknownID }

    /// The token of `id`, or nil when out of range.
    public func token(for id: Int32) -> String? {
        id >= 0 && Int(id) < tokens.count ? tokens[Int(id)] : nil
    }

    /// Builds a vocabulary from the tokens of a corpus: `unknownToken` and `endToken` first, then the
    /// tokens seen at least `minimumCount` times, most frequent first (ties in first-seen order),
    /// up to `maxSize` tokens in all. Everything else becomes the unknown token.
    public static func build<S: Sequence>(counting corpus: S, maxSize: Int, minimumCount: Int = 1,
                                          unknownToken: String = "<unk>", endToken: String = "</s>")
        -> LanguageModelVocabulary where S.Element == String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for token in corpus where token != unknownToken && token != endToken {
            if counts[token] == nil { order.append(token) }
            counts[token, default: 0] += 1
        }
        let firstSeen = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let kept = order.filter { counts[$0, default: 0] >= max(1, minimumCount) }
            .sorted { (counts[$0, default: 0], firstSeen[$1, default: 0]) > (counts[$1, default: 0], firstSeen[$0, default: 0]) }
            .prefix(max(0, maxSize - 2))
        // Cannot throw: both special tokens are present exactly once.
        do {
            return try LanguageModelVocabulary(tokens: [unknownToken, endToken] + kept,
                                               unknownToken: unknownToken, endToken: endToken)
        } catch {
            preconditionFailure("internal error: \(error)")
        }
    }
}
