/// Unit phrases of one family (currencies, measures) and what each names, looked up at a token: the longest phrase
/// that starts there wins ("square meters" over "meters" would not matter, "metric tons" over "metric" does).
///
/// Phrases are written as people write them ("$CAD", "km/h", "m²") and stored as their tokens, folded as
/// ``NumberLexicon/fold(_:)`` folds words, joined by one space ("km / h"); with `spacingMatters`, tokens written
/// together stay together ("m2" is not "m 2", "year-old" not "year - old"). A phrase added `caseSensitive` only
/// counts written exactly so ("MB" a megabyte where "mb" is a megabit) and wins over its folded form.
///
/// A look-up runs at every token of a text, so each table also holds the beginnings of its longer phrases
/// ("square" of "square meters"): reading stops at the first token that neither ends nor continues a phrase, and
/// most tokens are turned away by their first and last bytes and length (``KeyShapes``) without being hashed.
struct UnitPhrases<Unit: Sendable>: Sendable {
    /// Whether the space between a phrase's tokens must be as written: unit symbols glued to digits ("km2",
    /// "10km/h") read differently spaced out ("12 m 2 dm").
    let spacingMatters: Bool
    /// A phrase, or the beginning of a longer one: the unit it names (nil for a beginning alone) and whether a
    /// longer phrase starts with it.
    private struct Entry: Sendable {
        var unit: Unit?
        var continues = false
    }

    /// Folded token phrases and their beginnings.
    private var units: [String: Entry] = [:]
    /// Phrases as written, tokens joined by one space, and their beginnings, for the units whose case says which they are.
    private var exactUnits: [String: Entry] = [:]
    /// The shapes of the keys of `units` and `exactUnits`.
    private var keyShapes = KeyShapes(), exactKeyShapes = KeyShapes()
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
            guard tokens.count > 0 else { continue }
            if caseSensitive {
                for index in 0..<tokens.count { longestExactToken = max(longestExactToken, tokens[index].end - tokens[index].start) }
                let keys = (1...tokens.count).map { joined(tokens, 0..<$0) { tokens.text(from: $0, through: $0) } }
                Self.insert(unit, keys, into: &exactUnits, shapes: &exactKeyShapes)
            } else {
                let keys = (1...tokens.count).map { joined(tokens, 0..<$0) { NumberLexicon.fold(tokens[$0].text) } }
                Self.insert(unit, keys, into: &units, shapes: &keyShapes)
            }
            longest = max(longest, tokens.count)
        }
    }

    /// Enters a phrase (the last of `keys`, its first token, its first two... all of it) as naming `unit`, and each
    /// shorter beginning as continuing; each key's shape goes into the table's `shapes`.
    private static func insert(_ unit: Unit, _ keys: [String], into table: inout [String: Entry], shapes: inout KeyShapes) {
        keys.forEach { shapes.insert($0) }
        for key in keys.dropLast() { table[key, default: Entry()].continues = true }
        if let phrase = keys.last { table[phrase, default: Entry()].unit = unit }
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
        // Compared as UTF-8 (elisions are a letter or a few and an apostrophe): `hasPrefix` compares characters, and
        // runs at every token of the languages that elide.
        if first.isWord, let elision = elisions.first(where: { head.utf8.count > $0.utf8.count && head.utf8.starts(with: $0.utf8) }) {
            head = String(decoding: head.utf8.dropFirst(elision.utf8.count), as: UTF8.self)
        }
        var key = head
        var exact = asWritten(text, index)
        guard keyShapes.mayHold(head) || exact.map(exactKeyShapes.mayHold) == true else { return nil }
        var found: (Unit, Int)?
        var position = index
        while true {
            let folded = units[key], written = exact.flatMap { exactUnits[$0] }
            if let unit = written?.unit ?? folded?.unit { found = (unit, position) }
            position += 1
            guard folded?.continues == true || written?.continues == true,
                  position < text.count, position - index < longest else { break }
            let space = separator(text[position])
            key += space + NumberLexicon.fold(text[position].text)
            if let before = exact { exact = asWritten(text, position).map { before + space + $0 } }
        }
        return found
    }
}

/// The keys of a table by their first and last bytes and their length in bytes: a string whose length bit is not set
/// for both is no key, found without hashing it.
private struct KeyShapes: Sendable {
    /// Bit `length` (at most 63) of the entries for the first and for the last byte's low seven bits.
    private var byFirst = [UInt64](repeating: 0, count: 128), byLast = [UInt64](repeating: 0, count: 128)

    mutating func insert(_ key: String) {
        let shape = Self.shape(key)
        byFirst[shape.first] |= shape.length
        byLast[shape.last] |= shape.length
    }

    func mayHold(_ key: String) -> Bool {
        let shape = Self.shape(key)
        return byFirst[shape.first] & byLast[shape.last] & shape.length != 0
    }

    private static func shape(_ key: String) -> (first: Int, last: Int, length: UInt64) {
        let bytes = key.utf8
        return (Int((bytes.first ?? 0) & 127), Int((bytes.last ?? 0) & 127), 1 << UInt64(min(bytes.count, 63)))
    }
}
