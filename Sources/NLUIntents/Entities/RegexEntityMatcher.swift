import Foundation
import NLUText

/// Regex entities (Rasa `regex:`, Watson pattern values): each entity's patterns matched in the text,
/// case-insensitively; a match counts when it covers whole tokens (the tokens fully inside it).
///
///     let matcher = try RegexEntityMatcher([EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\d{5}"])])])
///     matcher.matches(in: "ship to 75001", tokens: WordTokenizer().tokens(in: "ship to 75001"))  // zip, tokens 2..<3
public struct RegexEntityMatcher: @unchecked Sendable {
    // NSRegularExpression is immutable after creation and documented thread-safe for matching.

    /// One match: the entity, the tokens it covers and the matched text.
    public struct Match: Sendable, Equatable {
        public var entity: String
        public var tokens: Range<Int>
    }

    private let patterns: [(entity: String, regex: NSRegularExpression)]

    /// Compiles the patterns of `definitions` (entities without patterns are skipped).
    /// - Throws: ``EntityTaggerError/invalidPattern(entity:pattern:reason:)`` naming the entity and pattern.
    public init(_ definitions: [EntityDefinition]) throws {
        var compiled: [(String, NSRegularExpression)] = []
        for definition in definitions {
            for value in definition.values {
                for pattern in value.patterns {
                    do {
                        compiled.append((definition.name, try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])))
                    } catch {
                        throw EntityTaggerError.invalidPattern(entity: definition.name, pattern: pattern, reason: "not a valid ICU regular expression")
                    }
                }
            }
        }
        patterns = compiled
    }

    /// Whether there is no pattern.
    public var isEmpty: Bool { patterns.isEmpty }

    /// The entity names that have patterns.
    public var entities: Set<String> { Set(patterns.map(\.entity)) }

    /// Every match that covers at least one whole token, in pattern order then text order.
    public func matches(in text: String, tokens: [WordTokenizer.Token]) -> [Match] {
        guard !patterns.isEmpty, !tokens.isEmpty else { return [] }
        let whole = NSRange(text.startIndex..<text.endIndex, in: text)
        var result: [Match] = []
        for (entity, regex) in patterns {
            for found in regex.matches(in: text, range: whole) where found.range.length > 0 {
                guard let range = Range(found.range, in: text) else { continue }
                let inside = tokens.indices.filter { tokens[$0].range.lowerBound >= range.lowerBound && tokens[$0].range.upperBound <= range.upperBound }
                guard let first = inside.first, let last = inside.last else { continue }
                result.append(Match(entity: entity, tokens: first..<(last + 1)))
            }
        }
        return result
    }
}
