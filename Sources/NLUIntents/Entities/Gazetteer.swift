import NLUText

/// Entity dictionaries matched in tokenized text: phrases (values, synonyms, lookup-table entries)
/// per entity, matched on whole tokens, case- and accent-insensitively, the longest phrase first.
///
/// ``matches(_:)`` returns, per entity, the non-overlapping left-to-right longest matches (what the
/// tagger's "inside a match of dictionary X" features use); ``EntityResolver`` picks among entities.
///
///     let gazetteer = Gazetteer(["coffee": [("short black", "espresso"), ("espresso", "espresso")]])
///     gazetteer.matches(Gazetteer.normalizedTokens("a Short Black please"))
///     // [Match(entity: "coffee", tokens: 1..<3, value: "espresso")]
public struct Gazetteer: Sendable {
    /// One dictionary match: the entity, the token range and the canonical value of the phrase.
    public struct Match: Sendable, Equatable {
        public var entity: String
        public var tokens: Range<Int>
        public var value: String
    }

    /// Entity names, sorted (the order matches are reported in).
    public let entities: [String]
    /// Per entity (same order): its phrases' normalized tokens as a trie, so that the longest phrase at
    /// a position is found in time proportional to its length. Trying every phrase with the position's
    /// first token made a dictionary of many phrases sharing a word ("the …") cost the phrase count at
    /// each occurrence of that word.
    private let tries: [PhraseTrie]

    /// Builds the dictionaries from `(phrase, canonical value)` pairs per entity (a phrase listed twice
    /// keeps its first value).
    public init(_ phrases: [String: [(phrase: String, value: String)]]) {
        entities = phrases.keys.sorted()
        tries = entities.map { entity in
            var trie = PhraseTrie()
            for (phrase, value) in phrases[entity] ?? [] { trie.insert(Self.normalizedTokens(phrase), value: value) }
            return trie
        }
    }

    /// Whether no entity has a phrase.
    public var isEmpty: Bool { tries.allSatisfy(\.isEmpty) }

    /// Per entity, left to right, the longest phrase starting at each position (non-overlapping).
    public func matches(_ normalizedTokens: [String]) -> [Match] {
        var result: [Match] = []
        for (entity, trie) in zip(entities, tries) where !trie.isEmpty {
            var i = 0
            while i < normalizedTokens.count {
                if let found = trie.longestPhrase(in: normalizedTokens, from: i) {
                    result.append(Match(entity: entity, tokens: i..<(i + found.length), value: found.value))
                    i += found.length
                } else {
                    i += 1
                }
            }
        }
        return result
    }

    /// The tokens of `text` as the dictionaries compare them.
    public static func normalizedTokens(_ text: String) -> [String] {
        WordTokenizer().tokens(in: text).map { normalize($0.text) }
    }

    /// Case- and accent-insensitive form: canonical decomposition, nonspacing marks removed, lower-cased
    /// ("Café" → "cafe"). Decomposed by pieces (``StreamSafeText/normalized(_:by:)``): Foundation took minutes
    /// over one word of 200,000 marks.
    public static func normalize<S: StringProtocol>(_ word: S) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in StreamSafeText.normalized(String(word), by: { $0.decomposedStringWithCanonicalMapping }).unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        // Spacing marks survive: keep what is hashed stream-safe.
        return StreamSafeText.string(of: String(scalars).lowercased())
    }
}
