/// The money and temperature words of a language other than English, as Recognizers-Text's per-language
/// NumberWithUnit specifications read them (CurrencyModel, TemperatureModel; their meaning, in our own tables):
/// currency names, symbols and codes with the unit each names in that language ("Livre", "Dólar canadiense"),
/// the words that join an amount to its unit ("75 millions **de** dollars") and its hundredths ("15 dollars
/// **et** 15 cents"), and the degree and scale words of temperatures. ``LexiconCurrencyRecognizer`` and
/// ``LexiconTemperatureRecognizer`` read every such language with it.
///
/// Phrases are written as people write them ("$CAD", "dollars australiens", "°C") and stored as their tokens,
/// folded as ``NumberLexicon/fold(_:)`` folds words, joined by one space ("$ cad").
struct UnitLexicon: Sendable {
    struct Currency: Sendable {
        /// The unit's name in the language, as the specs report it ("Dollar Canadien").
        var name: String
        var iso: String?
        /// Written before the amount ("$ 75", "EUR 1000", "dólar 22,5 millones") as well as after it.
        var prefix: Bool
        /// A hundredth of another unit ("cents", "centimes", "centavos"): it never takes hundredths itself.
        var subunit: Bool
        /// A coin that is one of itself without a number ("tientje", "kwartje": value 1).
        var impliedOne: Bool
        /// Reported without an amount, as a unit alone ("dollar" in "le dollar a baissé"), like the specs.
        var bare: Bool
    }

    /// Folded token phrases and the unit each names.
    private(set) var currencies: [String: Currency] = [:]
    /// The most tokens a currency phrase has.
    private(set) var longestCurrency = 1
    /// Words between an amount and its unit: "de" ("75 millions de dollars"), "di".
    var unitConnectors: Set<String> = []
    /// Elided forms of a connector glued to the unit: "d'" ("323 millions d'euros").
    var elisions: [String] = []
    /// Abbreviated scales written after an amount of money ("2,5 Mio USD"), beside the number words' own scales.
    var scaleAbbreviations: [String: Int64] = [:]
    /// Words between an amount and its hundredths: "et", "y", "con", "und", "en".
    var hundredthsConnectors: Set<String> = []
    /// Words that make the article after them "another", not one: Dutch "nog een tientje" is the coin, "een" left out.
    var anotherWords: Set<String> = []

    /// The words of "degrees" ("degrés", "grados", "Grad", "°"); "deg" and "gr" also with a dot.
    var degreeWords: Set<String> = []
    /// The unit of a temperature said in degrees without a scale ("Degré", "Grado", "Degree").
    var degreeUnit: String = "Degree"
    /// Scale words and the unit each names ("celsius" → "C" in French, "Grado Celsius" in Spanish); one-letter
    /// scales ("c", "f", "k") only count right after degrees, glued to the number, or capitalised.
    var scales: [String: String] = [:]
    /// Words that make degrees an angle ("angle", "ángulo", "Winkel", "drehen"): near them, degrees without a
    /// scale are no temperature.
    var angleWords: Set<String> = []

    /// Adds the phrases of one currency unit.
    mutating func currency(_ name: String, iso: String? = nil, prefix: Bool = false, subunit: Bool = false,
                           impliedOne: Bool = false, bare: Set<String> = [], _ phrases: [String]) {
        let bareKeys = Set(bare.map(Self.key))
        for phrase in phrases {
            let key = Self.key(phrase)
            currencies[key] = Currency(name: name, iso: iso, prefix: prefix, subunit: subunit, impliedOne: impliedOne,
                                       bare: bareKeys.contains(key))
            longestCurrency = max(longestCurrency, key.split(separator: " ").count)
        }
    }

    /// A phrase as the tables hold it: its tokens, folded, joined by one space.
    static func key(_ phrase: String) -> String {
        let tokens = TokenizedText(phrase)
        return (0..<tokens.count).map { NumberLexicon.fold(tokens[$0].text) }.joined(separator: " ")
    }

    /// The longest currency phrase that starts at token `index` (a first word may carry an elided connector,
    /// "d'euros"), with its last token.
    func currency(in text: TokenizedText, at index: Int) -> (unit: Currency, last: Int)? {
        guard let first = text.token(index) else { return nil }
        var head = NumberLexicon.fold(first.text)
        if first.isWord, let elision = elisions.first(where: { head.hasPrefix($0) && head.count > $0.count }) {
            head = String(head.dropFirst(elision.count))
        }
        var key = head
        var found: (Currency, Int)?
        if let unit = currencies[key] { found = (unit, index) }
        var position = index + 1
        while position < text.count, position - index < longestCurrency {
            key += " " + NumberLexicon.fold(text[position].text)
            if let unit = currencies[key] { found = (unit, position) }
            position += 1
        }
        return found
    }
}
