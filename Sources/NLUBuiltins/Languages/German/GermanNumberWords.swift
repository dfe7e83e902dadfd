/// German number words (Recognizers-Text's German specifications, read for their meaning): compounds read
/// piece by piece ("dreihundertvierundzwanzig", "eintausendeinhundertfünfzig"), the unit before its tens
/// ("vierundzwanzig"), "zweieinhalb", "anderthalb", "dreiviertel", ordinals by "-te"/"-ste" with their
/// endings ("fünfundzwanzigster", "dritten", "zu viert"), "3." before a word, and "Prozent".
enum GermanNumberWords {
    /// An ordinal is a stem, "t" or "st", then a declension ending.
    private static let ordinalEndings: [String] = {
        let endings = ["st", "t"].flatMap { base in ["e", "er", "en", "es", "em", ""].map { base + $0 } }
        return endings.sorted { $0.count > $1.count }
    }()

    static let lexicon = NumberLexicon(
        morphemes: [
            "null": .value(0), "ein": .value(1), "eine": .value(1), "eins": .value(1), "einer": .value(1),
            "einen": .value(1), "einem": .value(1), "zwei": .value(2), "zwo": .value(2), "drei": .value(3),
            "vier": .value(4), "funf": .value(5), "fuenf": .value(5), "sechs": .value(6), "sieben": .value(7),
            "acht": .value(8), "neun": .value(9), "zehn": .value(10), "elf": .value(11), "zwolf": .value(12),
            "zwoelf": .value(12), "dreizehn": .value(13), "vierzehn": .value(14), "funfzehn": .value(15),
            "fuenfzehn": .value(15), "sechzehn": .value(16), "siebzehn": .value(17), "achtzehn": .value(18),
            "neunzehn": .value(19), "zwanzig": .value(20), "dreißig": .value(30), "dreissig": .value(30),
            "vierzig": .value(40), "funfzig": .value(50), "fuenfzig": .value(50), "sechzig": .value(60),
            "siebzig": .value(70), "achtzig": .value(80), "neunzig": .value(90),
            "hundert": .hundred, "tausend": .scale(1_000), "million": .scale(1_000_000), "millionen": .scale(1_000_000),
            "milliarde": .scale(1_000_000_000), "milliarden": .scale(1_000_000_000),
            "billion": .scale(1_000_000_000_000), "billionen": .scale(1_000_000_000_000),
            "und": .connector, "minus": .negative, "komma": .decimalPoint, "dutzend": .dozen,
            "halb": .fraction(2), "halbe": .fraction(2), "halbes": .fraction(2), "halben": .fraction(2),
            "halber": .fraction(2), "drittel": .fraction(3), "viertel": .fraction(4), "funftel": .fraction(5),
            "fuenftel": .fraction(5), "sechstel": .fraction(6), "siebtel": .fraction(7), "achtel": .fraction(8),
            "neuntel": .fraction(9), "zehntel": .fraction(10),
            "einhalb": .andHalf, "anderthalb": .oneAndHalf, "zuerst": .ordinal(1),
        ],
        // The stems of the irregular ordinals: "erst", "dritt", "siebt", "acht" + ending.
        gluedOnly: ["ers": .value(1), "drit": .value(3), "sieb": .value(7), "ach": .value(8), "milliard": .scale(1_000_000_000)],
        gluesWords: true,
        ordinalEndings: ordinalEndings,
        unitBeforeTens: true,
        articleOnes: ["ein", "eine", "einen", "einem", "einer"],
        dotOrdinal: true,
        percentAfter: [["prozent"], ["prozentpunkte"], ["prozentpunkten"], ["prozentpunkt"]],
        relativeOrdinals: RelativeOrdinalPhrases([
            ("end+0", RelativeOrdinalPhrases.inflected(["letzt"], declension)),
            ("end-1", RelativeOrdinalPhrases.inflected(["vorletzt"], declension)),
            ("end-2", RelativeOrdinalPhrases.inflected(["drittletzt"], declension)),
            ("current+1", RelativeOrdinalPhrases.inflected(["nächst"], declension)),
            ("current-1", RelativeOrdinalPhrases.inflected(["vorherig"], declension)),
        ]))

    /// The endings of an adjective ("letzte", "letzten", "letzter", "letztes", "letztem").
    private static let declension = ["e", "en", "er", "es", "em"]
}
