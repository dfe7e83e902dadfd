/// The unit words of a language, as Recognizers-Text's per-language NumberWithUnit specifications read them
/// (CurrencyModel, TemperatureModel, AgeModel, DimensionModel; their meaning, in our own tables): currency names,
/// symbols and codes with the unit each names in that language ("Livre", "Dólar canadiense"), the words that join an
/// amount to its unit ("75 millions **de** dollars") and its hundredths ("15 dollars **et** 15 cents"), the degree
/// and scale words of temperatures, and the units of age and dimension ("ans", "years old", "km", "mètres carrés").
/// ``LexiconCurrencyRecognizer`` and ``LexiconTemperatureRecognizer`` read every language but English, Chinese and
/// Japanese with it (English keeps its own money and temperature tables); ``MeasureRecognizer`` reads English too.
///
/// Phrases are written as people write them ("$CAD", "dollars australiens", "°C") and stored by ``UnitPhrases``.
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

    /// A unit of age or dimension as the language's specs name it ("Year", "Ans", "Kilometer", "Mètre carré").
    struct Measure: Sendable {
        /// ``BuiltinEntityType/age`` or ``BuiltinEntityType/dimension``.
        var type: BuiltinEntityType
        var name: String
        /// Written before the amount: "age 87".
        var prefix = false
        /// Reported without an amount, as a unit alone ("metric ton" in "a metric ton is 2,204.62 pounds").
        var bare = false
        /// A word more often something else after a number ("2 in April", "at 6pm"): not glued to its number,
        /// nor after one of ``ambiguityLeads``.
        var ambiguous = false
        /// An angle ("90 degrees"): only near a word of turning (``angleWords``), else it is a temperature.
        var angle = false
        /// An age said with a time word alone ("29 ans", "cinco años"), which a duration reads the same: on the same
        /// span the duration wins.
        var alsoDuration = false
    }

    /// A length said in two units, the larger first ("5 feet 2 inches", "5 ft and 2 in", "6'2\""), which the specs read
    /// as one amount of the larger ("5.166666666666667" Foot).
    struct TwoPartLength: Sendable {
        /// The units' names ("Foot", "Inch") and how many of the smaller make one of the larger.
        var larger: String
        var smaller: String
        var perLarger: Int64
        /// Marks glued to the digits that stand for the two units ("6'2\"", "6′2″").
        var largerMarks: Set<String> = []
        var smallerMarks: Set<String> = []
    }

    /// Age and dimension phrases and the unit each names.
    private(set) var measures = UnitPhrases<Measure>(spacingMatters: true)
    /// Lengths said in two units (English feet and inches), and the words that may join the parts ("and").
    var twoPartLengths: [TwoPartLength] = []
    var twoPartJoiners: Set<String> = []
    /// Words that say one half before a unit of dimension, which the number reader leaves alone ("media vuelta",
    /// "meia volta", "mezzo giro": 0,5 Turn).
    var halves: Set<String> = []
    /// Words right before an amount that make an ambiguous unit after it something else: "at 2 pm", "for 2 in April".
    var ambiguityLeads: Set<String> = []

    /// Adds the phrases of one unit of dimension; `bare` phrases are also reported without an amount, `ambiguous`
    /// ones only where nothing says otherwise; `caseSensitive` phrases count only written so ("MB", "Mb").
    mutating func dimension(_ name: String, bare: Set<String> = [], ambiguous: Set<String> = [], caseSensitive: Bool = false,
                            angle: Bool = false, _ phrases: [String]) {
        for phrase in phrases {
            measures.add([phrase], Measure(type: .dimension, name: name, bare: bare.contains(phrase), ambiguous: ambiguous.contains(phrase),
                                           angle: angle), caseSensitive: caseSensitive)
        }
    }

    /// Adds the byte and its multiples under the names the Romance specs share ("Kilobyte": "kb", "kilobyte", "kilobytes").
    mutating func byteMultiples() {
        dimension("Byte", ["byte", "bytes"])
        for (letter, name) in [("k", "Kilobyte"), ("m", "Megabyte"), ("g", "Gigabyte"), ("t", "Terabyte")] {
            dimension(name, ["\(letter)b", name.lowercased(), name.lowercased() + "s"])
        }
    }

    /// Adds the phrases of one unit of age ("years old", "ans"; `prefix`: "age 87").
    mutating func age(_ name: String, prefix: Bool = false, alsoDuration: Bool = false, _ phrases: [String]) {
        measures.add(phrases, Measure(type: .age, name: name, prefix: prefix, alsoDuration: alsoDuration))
    }

    /// The longest age or dimension phrase that starts at token `index`, with its last token.
    func measure(in text: TokenizedText, at index: Int) -> (unit: Measure, last: Int)? {
        measures.match(in: text, at: index, elisions: elisions)
    }

    /// `value` times the scale words right after token `last` ("48,2 millions", "1,17 mil millones", "2,5 Mio"),
    /// which the number reader leaves to the unit recognizers after a decimal; with the last token read.
    func scaled(_ value: NumberValue, _ text: TokenizedText, after last: Int, numbers: NumberLexicon?) -> (NumberValue, Int) {
        var value = value, last = last
        while let word = text.word(last + 1).map(NumberLexicon.fold) {
            if case .scale(let scale)? = numbers?.morphemes[word] {
                value = value * .integer(scale)
            } else if let scale = scaleAbbreviations[word] {
                value = value * .integer(scale)
            } else {
                break
            }
            last += 1
        }
        return (value, last)
    }

    /// Currency phrases and the unit each names.
    private(set) var currencies = UnitPhrases<Currency>()
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
        let bareKeys = Set(bare.map(UnitPhrases<Currency>.key))
        for phrase in phrases {
            currencies.add([phrase], Currency(name: name, iso: iso, prefix: prefix, subunit: subunit, impliedOne: impliedOne,
                                              bare: bareKeys.contains(UnitPhrases<Currency>.key(phrase))))
        }
    }

    /// The longest currency phrase that starts at token `index` (a first word may carry an elided connector,
    /// "d'euros"), with its last token.
    func currency(in text: TokenizedText, at index: Int) -> (unit: Currency, last: Int)? {
        currencies.match(in: text, at: index, elisions: elisions)
    }
}
