/// One piece of a number word, as a language's tables name it. A word is one piece ("vingt") or several
/// glued together ("dreihundertvierundzwanzig": drei, hundert, vier, und, zwanzig).
enum NumberMorpheme: Sendable, Equatable {
    /// A value below a hundred added to the group: "sept" 7, "zwanzig" 20, "veinti" 20, "quatrevingt" 80.
    case value(Int64)
    /// A word that is already whole hundreds: "doscientos" 200, "quinhentos" 500.
    case hundreds(Int64)
    /// Multiplies the group by a hundred: "cent", "hundert", "cento", "honderd".
    case hundred
    /// Closes the group times the scale: "mille" 1e3, "Millionen" 1e6, "milliard" 1e9.
    case scale(Int64)
    /// Joins parts: "et", "y", "e", "und", "en".
    case connector
    /// An ordinal word adding its value: "premier" 1, "vigésimo" 20, "eerste" 1.
    case ordinal(Int64)
    /// An ordinal scale: "milésimo" 1e3 multiplies what came before and makes an ordinal.
    case ordinalScale(Int64)
    /// An ordinal ending ("-ième", "-ste", "-esimo"): what the word held before it is an ordinal.
    case ordinalMark
    /// A denominator: "tiers" 3, "Viertel" 4, "demi" 2, a plural ordinal ("cinquièmes" 5), "veinticincoavos" 25.
    case fraction(Int64)
    /// Plus one half: German "einhalb" ("zweieinhalb" 2.5).
    case andHalf
    /// One and a half on its own: "anderthalb".
    case oneAndHalf
    /// Twelve times: "douzaine", "Dutzend", "docena".
    case dozen
    /// Decimals follow in words: "virgule", "Komma", "coma".
    case decimalPoint
    /// A minus sign in words: "moins", "menos", "minus".
    case negative
}

/// The number vocabulary and the few rules a language other than English supplies; ``LexiconNumberParser``
/// reads every such language with it. Words are looked up folded (lower case, accents removed, "ß" kept),
/// so "cinquième" and "cinquieme", "tweeëntwintig" and "tweeentwintig" read alike; the tables hold folded words.
struct NumberLexicon: Sendable {
    /// Whole words and the pieces glued words are made of.
    var morphemes: [String: NumberMorpheme]
    /// Pieces only found inside glued words (Spanish "veinti", Italian "vent"), never alone.
    var gluedOnly: [String: NumberMorpheme] = [:]
    /// Whether a number may be written as one word of several pieces (German, Dutch, Italian).
    var gluesWords: Bool
    /// Endings that make a cardinal stem an ordinal, longest first ("ieme", "ste", "esimo").
    var ordinalEndings: [String] = []
    /// Edits (drop, add) tried on an ordinal's stem before it is read: French "cinqu" + "ième" is "cinq".
    var stemRepairs: [(drop: String, add: String)] = []
    /// Plural endings that make an ordinal a denominator ("cinquièmes", "quintos", "quinti").
    var pluralEndings: [(plural: String, singular: String)] = []
    /// Endings after a cardinal stem that make a denominator (Spanish "avo"/"avos": "veinticincoavos").
    var denominatorEndings: [String] = []
    /// Whether ordinal words follow each other and add up (Spanish "centésimo vigésimo quinto"), rather
    /// than an ordinal ending the number (French "cent vingt-cinquième").
    var ordinalsContinue = false
    /// Whether a unit may come before its tens, joined ("vierundzwanzig", "eenentwintig").
    var unitBeforeTens = false
    /// Words that are the numerator one of "un cinquième" (a fraction, not an ordinal).
    var articleOnes: Set<String> = []
    /// Words between a numerator and a denominator: "sur", "sobre", "su".
    var ratioWords: Set<String> = []
    /// What may follow digits glued as an ordinal: "er", "e", "eme", "º", "ste".
    var digitOrdinalSuffixes: Set<String> = []
    /// Whether "3." before a word is the ordinal third (German).
    var dotOrdinal = false
    /// Word sequences after a number that make it a percentage ("pour cent", "Prozent").
    var percentAfter: [[String]] = []
    /// Word sequences before a number that make it a percentage ("pourcentage de").
    var percentBefore: [[String]] = []
    /// French "quatre-vingt": a four before "vingt" multiplies it (80), it is not added.
    var fourTwenties = false
    /// Words that are a number only with more number words after them (Dutch "een" is mostly "a"), as written
    /// in lower case: "één" with its accents is always one.
    var weakWords: Set<String> = []
    /// Articles a ratio word may take before the denominator (Dutch "1 op de 3", "een van de drie").
    var ratioArticles: Set<String> = []
    /// Whether the connector belongs to the numerator of a fraction rather than starting a mixed number: Spanish
    /// "ciento treinta y dos quintos" is 132/5, where French "vingt et trois cinquièmes" is 20 + 3/5.
    var connectorJoinsNumerator = false
    /// Words after a cardinal that make it a denominator (Portuguese "vinte e um avos", 1/21 after "um"); with
    /// them, a cardinal before a plural ordinal scale is a denominator too ("três dois milésimos", 3/2000).
    var denominatorWords: Set<String> = []
    /// Nouns that are one half on their own ("la mitad").
    var halfNouns: Set<String> = []
    /// Ordinals relative to the end or the current item ("dernier", "vorletzte").
    var relativeOrdinals: RelativeOrdinalPhrases?

    /// The decimal mark of numbers written with digits; every language here writes a decimal comma and
    /// groups thousands with dots or spaces.
    let decimalMark: String = ","
    let groupMark: String = "."

    /// `word` in the form the tables hold: lower case without accents ("ß" and "ñ" aside).
    static func fold(_ word: String) -> String {
        var word = word
        // Every letter folded is two bytes of UTF-8, 0xC3 and a second one: a word without 0xC3 stays as it is.
        let folded = word.withUTF8 { bytes -> String? in
            guard bytes.contains(0xC3) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                var read = 0, written = 0
                while read < bytes.count {
                    if bytes[read] == 0xC3, read + 1 < bytes.count, let plain = plainLetter(afterC3: bytes[read + 1]) {
                        buffer[written] = plain
                        read += 2
                    } else {
                        buffer[written] = bytes[read]
                        read += 1
                    }
                    written += 1
                }
                return written
            }
        }
        return folded ?? word
    }

    /// `word` folded as ``fold(_:)-swift.type.method`` does, as scalars.
    static func foldedScalars(_ word: String) -> [Unicode.Scalar] {
        var word = word
        if let ascii = word.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? bytes.map { Unicode.Scalar($0) } : nil }) {
            return ascii
        }
        return word.unicodeScalars.map { scalar in
            // U+00C0-U+00FF are 0xC3 then 0x80-0xBF in UTF-8.
            guard scalar.value >= 0xC0, scalar.value <= 0xFF, let plain = plainLetter(afterC3: UInt8(scalar.value - 0x40)) else { return scalar }
            return Unicode.Scalar(plain)
        }
    }

    /// The unaccented letter of the lower-case Latin-1 letter encoded as 0xC3 then `byte` ("à" is 0xC3 0xA0), or nil
    /// for one kept ("ß", "ñ", capitals).
    private static func plainLetter(afterC3 byte: UInt8) -> UInt8? {
        switch byte {
        case 0xA0...0xA5: UInt8(ascii: "a") // à á â ã ä å
        case 0xA7: UInt8(ascii: "c") // ç
        case 0xA8...0xAB: UInt8(ascii: "e") // è é ê ë
        case 0xAC...0xAF: UInt8(ascii: "i") // ì í î ï
        case 0xB2...0xB6: UInt8(ascii: "o") // ò ó ô õ ö
        case 0xB9...0xBC: UInt8(ascii: "u") // ù ú û ü
        default: nil
        }
    }
}
