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

    private struct Phrase: Sendable {
        var tokens: [String]
        var value: String
    }

    /// Entity names, sorted (the order matches are reported in).
    public let entities: [String]
    /// Per entity (same order): phrases by their first normalized token, longest first.
    private let index: [[String: [Phrase]]]

    /// Builds the dictionaries from `(phrase, canonical value)` pairs per entity.
    public init(_ phrases: [String: [(phrase: String, value: String)]]) {
        entities = phrases.keys.sorted()
        index = entities.map { entity in
            var byFirst: [String: [Phrase]] = [:]
            var seen = Set<[String]>()
            for (phrase, value) in phrases[entity] ?? [] {
                let tokens = Self.normalizedTokens(phrase)
                guard let first = tokens.first, seen.insert(tokens).inserted else { continue }
                byFirst[first, default: []].append(Phrase(tokens: tokens, value: value))
            }
            return byFirst.mapValues { $0.sorted { $0.tokens.count > $1.tokens.count } }
        }
    }

    /// Whether no entity has a phrase.
    public var isEmpty: Bool { index.allSatisfy(\.isEmpty) }

    /// Per entity, left to right, the longest phrase starting at each position (non-overlapping).
    public func matches(_ normalizedTokens: [String]) -> [Match] {
        var result: [Match] = []
        for (entity, table) in zip(entities, index) where !table.isEmpty {
            var i = 0
            while i < normalizedTokens.count {
                var found: Phrase?
                for phrase in table[normalizedTokens[i]] ?? [] where i + phrase.tokens.count <= normalizedTokens.count {
                    if normalizedTokens[i..<(i + phrase.tokens.count)].elementsEqual(phrase.tokens) { found = phrase; break }
                }
                if let found {
                    result.append(Match(entity: entity, tokens: i..<(i + found.tokens.count), value: found.value))
                    i += found.tokens.count
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
    /// ("Café" → "cafe").
    public static func normalize<S: StringProtocol>(_ word: S) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(word).decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }
}
