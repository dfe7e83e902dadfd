/// Dutch number words (Recognizers-Text's Dutch specifications, read for their meaning): compounds read
/// piece by piece ("driehonderdvierentwintig", "tweeëntwintighonderd"), the unit before its tens
/// ("eenentwintig"), ordinals by "-de"/"-ste" ("vijfendertigste", "honderdeerste"), "11e", "30ste", "procent".
enum DutchNumberWords {
    static let lexicon = NumberLexicon(
        morphemes: [
            "nul": .value(0), "een": .value(1), "twee": .value(2), "drie": .value(3), "vier": .value(4),
            "vijf": .value(5), "zes": .value(6), "zeven": .value(7), "acht": .value(8), "negen": .value(9),
            "tien": .value(10), "elf": .value(11), "twaalf": .value(12), "dertien": .value(13), "veertien": .value(14),
            "vijftien": .value(15), "zestien": .value(16), "zeventien": .value(17), "achttien": .value(18),
            "negentien": .value(19), "twintig": .value(20), "dertig": .value(30), "veertig": .value(40),
            "vijftig": .value(50), "zestig": .value(60), "zeventig": .value(70), "tachtig": .value(80),
            "negentig": .value(90),
            "honderd": .hundred, "duizend": .scale(1_000), "miljoen": .scale(1_000_000), "miljoenen": .scale(1_000_000),
            "miljard": .scale(1_000_000_000), "miljarden": .scale(1_000_000_000),
            "biljoen": .scale(1_000_000_000_000), "biljoenen": .scale(1_000_000_000_000),
            "en": .connector, "min": .negative, "komma": .decimalPoint, "dozijn": .dozen, "dozijnen": .dozen,
            "half": .fraction(2), "halve": .fraction(2), "kwart": .fraction(4),
            "anderhalf": .oneAndHalf, "anderhalve": .oneAndHalf,
            "eerste": .ordinal(1), "derde": .ordinal(3),
        ],
        gluesWords: true,
        ordinalEndings: ["ste", "de"],
        // "vijf achtsten": a plural ordinal is a denominator.
        pluralEndings: [("n", "")],
        unitBeforeTens: true,
        articleOnes: ["een"],
        // "1 uit drie", "een op de twintig", "één van de twintig".
        ratioWords: ["uit", "op", "van"],
        digitOrdinalSuffixes: ["e", "de", "ste"],
        percentAfter: [["procent"], ["percent"]],
        percentBefore: [["percentage", "van"]],
        weakWords: ["een"],
        ratioArticles: ["de"],
        relativeOrdinals: RelativeOrdinalPhrases([
            ("end+0", ["laatste"]),
            ("end-1", ["voorlaatste", "op één na laatste", "de op één na laatste", "de een voor de laatste",
                       "die voor de laatste"]),
            ("end-2", ["twee na laatste", "op twee na laatste"]),
            ("current+1", ["volgende"]),
            ("current-1", ["vorige"]),
        ]))
}
