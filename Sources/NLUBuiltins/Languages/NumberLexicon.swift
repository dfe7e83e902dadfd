import NLUText

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
        isASCII(word) ? word : String(scalars: word.unicodeScalars.lazy.map(fold))
    }

    /// `word` folded as ``fold(_:)-swift.type.method`` does, as scalars.
    static func foldedScalars(_ word: String) -> [Unicode.Scalar] {
        guard isASCII(word) else { return word.unicodeScalars.map(fold) }
        return word.utf8.map { Unicode.Scalar($0) }
    }

    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        // Every scalar folded lies in Latin-1's letters.
        guard scalar.value >= 0xC0, scalar.value <= 0xFF else { return scalar }
        switch scalar {
        case "à", "á", "â", "ä", "ã", "å": return "a"
        case "è", "é", "ê", "ë": return "e"
        case "ì", "í", "î", "ï": return "i"
        case "ò", "ó", "ô", "ö", "õ": return "o"
        case "ù", "ú", "û", "ü": return "u"
        case "ç": return "c"
        default: return scalar
        }
    }

    /// Whether `word` is ASCII, read from its contiguous UTF-8 where it has it (every native string does): every
    /// word of every text is folded, and most are ASCII.
    private static func isASCII(_ word: String) -> Bool {
        word.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 128 } } ?? word.utf8.allSatisfy { $0 < 128 }
    }
}
