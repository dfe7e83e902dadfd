/// Unit phrases of one family (currencies, measures) and what each names, looked up at a token: the longest phrase
/// that starts there wins ("square meters" over "meters" would not matter, "metric tons" over "metric" does).
///
/// Phrases are written as people write them ("$CAD", "km/h", "m²") and stored as their tokens, folded as
/// ``NumberLexicon/fold(_:)`` folds words, joined by one space ("km / h"); with `spacingMatters`, tokens written
/// together stay together ("m2" is not "m 2", "year-old" not "year - old"). A phrase added `caseSensitive` only
/// counts written exactly so ("MB" a megabyte where "mb" is a megabit) and wins over its folded form.
struct UnitPhrases<Unit: Sendable>: Sendable {
    /// Whether the space between a phrase's tokens must be as written: unit symbols glued to digits ("km2",
    /// "10km/h") read differently spaced out ("12 m 2 dm").
    let spacingMatters: Bool
    /// Folded token phrases and the unit each names.
    private(set) var units: [String: Unit] = [:]
    /// Phrases as written, tokens joined by one space, for the units whose case says which they are.
    private(set) var exactUnits: [String: Unit] = [:]
    /// The most tokens a phrase has: a look-up never reads further.
    private(set) var longest = 1
    /// The most scalars a token of a case-sensitive phrase has: a longer token is never read as written (a word of a
    /// hundred thousand combining marks is only hashed in its stream-safe form, ``TokenizedText``).
    private var longestExactToken = 0

    init(spacingMatters: Bool = false) {
        self.spacingMatters = spacingMatters
    }

    var isEmpty: Bool { units.isEmpty && exactUnits.isEmpty }

    mutating func add(_ phrases: [String], _ unit: Unit, caseSensitive: Bool = false) {
        for phrase in phrases {
            let tokens = TokenizedText(phrase)
            if caseSensitive {
                for index in 0..<tokens.count { longestExactToken = max(longestExactToken, tokens[index].end - tokens[index].start) }
                exactUnits[joined(tokens, 0..<tokens.count) { tokens.text(from: $0, through: $0) }] = unit
            } else {
                units[joined(tokens, 0..<tokens.count) { NumberLexicon.fold(tokens[$0].text) }] = unit
            }
            longest = max(longest, tokens.count)
        }
    }

    /// A phrase as the tables hold it: its tokens, folded, joined by one space.
    static func key(_ phrase: String) -> String { key(TokenizedText(phrase)) }

    private static func key(_ tokens: TokenizedText) -> String {
        (0..<tokens.count).map { NumberLexicon.fold(tokens[$0].text) }.joined(separator: " ")
    }

    /// The tokens' texts joined by one space, or by none between tokens written together when spacing matters.
    private func joined(_ tokens: TokenizedText, _ range: Range<Int>, _ text: (Int) -> String) -> String {
        var key = ""
        for index in range {
            if index > range.lowerBound, !spacingMatters || tokens[index].spaceBefore { key += " " }
            key += text(index)
        }
        return key
    }

    /// The token at `index` as written, when a case-sensitive phrase could hold it.
    private func asWritten(_ text: TokenizedText, _ index: Int) -> String? {
        let token = text[index]
        guard token.end - token.start <= longestExactToken else { return nil }
        return text.text(from: index, through: index)
    }

    private func separator(_ token: Token) -> String { !spacingMatters || token.spaceBefore ? " " : "" }

    /// The longest phrase that starts at token `index` (a first word may carry an elided connector, "d'euros"),
    /// with its last token.
    func match(in text: TokenizedText, at index: Int, elisions: [String] = []) -> (unit: Unit, last: Int)? {
        guard let first = text.token(index) else { return nil }
        var head = NumberLexicon.fold(first.text)
        if first.isWord, let elision = elisions.first(where: { head.hasPrefix($0) && head.count > $0.count }) {
            head = String(head.dropFirst(elision.count))
        }
        var key = head
        var exact = asWritten(text, index)
        var found: (Unit, Int)?
        var position = index
        while true {
            if let unit = exact.flatMap({ exactUnits[$0] }) ?? units[key] { found = (unit, position) }
            position += 1
            guard position < text.count, position - index < longest else { break }
            let space = separator(text[position])
            key += space + NumberLexicon.fold(text[position].text)
            if let before = exact { exact = asWritten(text, position).map { before + space + $0 } }
        }
        return found
    }
}
