import Foundation
import NLUText

/// Regex entities (Rasa `regex:`, Watson pattern values): each entity's patterns matched in the text,
/// case-insensitively; a match counts when it covers whole tokens (the tokens fully inside it).
///
///     let matcher = try RegexEntityMatcher([EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\d{5}"])])])
///     matcher.matches(in: "ship to 75001", tokens: WordTokenizer().tokens(in: "ship to 75001"))  // zip, tokens 2..<3
///
/// ICU's matcher backtracks, so a pattern such as `(a+)+$` takes time exponential in the length of a
/// text it almost matches (hours at 40 characters). The patterns therefore share one time budget per
/// text (``timeBudget(forUTF16Length:)``): each may use an equal share of what is left when it starts
/// (what a fast pattern leaves goes to those after it), and one that runs past its share matches
/// nothing in that text, where a timed-out prediction would otherwise hold a server worker
/// indefinitely. Shared, not one budget per pattern: a model trained on benign text, whose patterns
/// all pass training, may hold several that run away on a crafted text, and ten of them held a worker
/// five seconds per utterance (training refuses a pattern that runs away on a training utterance,
/// naming it). Ordinary patterns scan a 100,000-character text in about 10 ms, far inside their share.
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
                    guard let regex = Self.compile(pattern) else {
                        throw EntityTaggerError.invalidPattern(entity: definition.name, pattern: pattern, reason: "not a valid ICU regular expression")
                    }
                    compiled.append((definition.name, regex))
                }
            }
        }
        patterns = compiled
    }

    /// `pattern` as the matcher compiles it (case-insensitive), or nil when ICU refuses it; datasets
    /// check their patterns with it before training.
    public static func compile(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    }

    /// Whether there is no pattern.
    public var isEmpty: Bool { patterns.isEmpty }

    /// Whether `other` holds the same patterns for the same entities in the same order, so that its
    /// matches on a text are this matcher's (the tagger's regex features and the extractor's regex
    /// entities then search each text once).
    public func hasSamePatterns(as other: RegexEntityMatcher) -> Bool {
        patterns.count == other.patterns.count
            && zip(patterns, other.patterns).allSatisfy { $0.entity == $1.entity && $0.regex.pattern == $1.regex.pattern }
    }

    /// The entity names that have patterns.
    public var entities: Set<String> { Set(patterns.map(\.entity)) }

    /// How long the patterns may search a text of `length` UTF-16 units, all together: half a second
    /// plus 20 µs a unit (100× what a plain scan costs), so that a long text is never cut short by its
    /// length alone.
    public static func timeBudget(forUTF16Length length: Int) -> Duration {
        .milliseconds(500) + .microseconds(20) * max(0, length)
    }

    /// Every match that covers at least one whole token, in pattern order then text order. A pattern
    /// that runs past its share of the text's ``timeBudget(forUTF16Length:)`` contributes nothing for
    /// this text.
    public func matches(in text: String, tokens: [WordTokenizer.Token]) -> [Match] {
        var timeouts: [Timeout] = []
        return matches(in: text, tokens: tokens, timeouts: &timeouts)
    }

    /// A pattern that ran past its share of a text's time budget: it contributed no match there.
    /// Prediction reports them (``IntentPrediction/warnings``), since the entity is then silently missing.
    public struct Timeout: Sendable, Hashable {
        public var entity: String
        public var pattern: String

        /// The budget (``timeBudget(forUTF16Length:)``) and why nested repetition runs past it, for the
        /// messages at training and at prediction.
        static let budget = "0.5 s + 20 µs a character, shared by the patterns"
        static let backtrackingAdvice = "ICU backtracks, so nested repetition such as (a+)+ or (\\w+\\s?)* takes time exponential "
            + "in the text's length: rewrite the pattern"

        /// What a user reads: the entity, the pattern, what happened and what to do.
        public var message: String {
            "entity '\(entity)': pattern '\(pattern)' ran past its share of the time budget on this text (\(Self.budget)) "
                + "and matched nothing in it; \(Self.backtrackingAdvice)"
        }
    }

    /// The clock the time budget is read from: the continuous clock. Tests bind one that advances a fixed step at
    /// each reading (`$budgetClock.withValue`), so that what the patterns spend of the budget is counted, the same
    /// on a loaded machine as on an idle one, rather than timed.
    @TaskLocal static var budgetClock: any Clock<Duration> = ContinuousClock()

    /// ``matches(in:tokens:)``, appending to `timeouts` the patterns that ran past their share of the budget.
    public func matches(in text: String, tokens: [WordTokenizer.Token], timeouts: inout [Timeout]) -> [Match] {
        matches(in: text, tokens: tokens, timeouts: &timeouts, clock: Self.budgetClock)
    }

    private func matches<C: Clock<Duration>>(in text: String, tokens: [WordTokenizer.Token], timeouts: inout [Timeout],
                                             clock: C) -> [Match] {
        guard !patterns.isEmpty, !tokens.isEmpty else { return [] }
        let whole = NSRange(text.startIndex..<text.endIndex, in: text)
        let end = clock.now.advanced(by: Self.timeBudget(forUTF16Length: whole.length))
        var result: [Match] = []
        for (position, (entity, regex)) in patterns.enumerated() {
            var found: [NSRange] = []
            var timedOut = false
            let start = clock.now
            let deadline = start.advanced(by: start.duration(to: end) / (patterns.count - position))
            // .reportProgress makes ICU call back every few thousand backtracking steps even while
            // no match is found, which is what lets a runaway pattern be stopped.
            regex.enumerateMatches(in: text, options: [.reportProgress], range: whole) { match, _, stop in
                if let match, match.range.length > 0 { found.append(match.range) }
                if clock.now > deadline {
                    timedOut = true
                    stop.pointee = true
                }
            }
            guard !timedOut else {
                timeouts.append(Timeout(entity: entity, pattern: regex.pattern))
                continue
            }
            for range in found {
                guard let range = Range(range, in: text), let covered = Self.tokens(of: tokens, inside: range) else { continue }
                result.append(Match(entity: entity, tokens: covered))
            }
        }
        return result
    }

    /// The tokens lying wholly inside `range`, found by binary search (tokens are in text order and do
    /// not overlap): a linear filter per match made a text with many matches quadratic.
    static func tokens(of tokens: [WordTokenizer.Token], inside range: Range<String.Index>) -> Range<Int>? {
        let first = tokens.partitioningIndex { $0.range.lowerBound >= range.lowerBound }
        let end = tokens.partitioningIndex { $0.range.upperBound > range.upperBound }
        return first < end ? first..<end : nil
    }
}
