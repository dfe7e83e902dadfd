/// French number words (Recognizers-Text's French number, ordinal and percentage specifications, read for
/// their meaning): "quatre-vingt-dix-sept", "vingt et un", Belgian and Swiss "septante", "nonante",
/// ordinals by "-ième" ("cinquième", "vingt et unième", "millième") with "premier"/"première", "1er", "2e",
/// "11ème", and "pour cent".
enum FrenchNumberWords {
    static let lexicon = NumberLexicon(
        morphemes: [
            "zero": .value(0), "un": .value(1), "une": .value(1), "deux": .value(2), "trois": .value(3), "quatre": .value(4),
            "cinq": .value(5), "six": .value(6), "sept": .value(7), "huit": .value(8), "neuf": .value(9), "dix": .value(10),
            "onze": .value(11), "douze": .value(12), "treize": .value(13), "quatorze": .value(14), "quinze": .value(15),
            "seize": .value(16), "vingt": .value(20), "vingts": .value(20), "trente": .value(30), "quarante": .value(40),
            "cinquante": .value(50), "soixante": .value(60), "septante": .value(70), "octante": .value(80),
            "huitante": .value(80), "nonante": .value(90),
            "cent": .hundred, "cents": .hundred,
            "mille": .scale(1_000), "mil": .scale(1_000), "million": .scale(1_000_000), "millions": .scale(1_000_000),
            "milliard": .scale(1_000_000_000), "milliards": .scale(1_000_000_000),
            "billion": .scale(1_000_000_000_000), "billions": .scale(1_000_000_000_000),
            "trillion": .scale(1_000_000_000_000_000_000), "trillions": .scale(1_000_000_000_000_000_000),
            "et": .connector, "moins": .negative, "virgule": .decimalPoint,
            "douzaine": .dozen, "douzaines": .dozen,
            "demi": .fraction(2), "demie": .fraction(2), "demis": .fraction(2), "tiers": .fraction(3),
            "quart": .fraction(4), "quarts": .fraction(4),
            "premier": .ordinal(1), "premiere": .ordinal(1), "premiers": .ordinal(1), "premieres": .ordinal(1),
            "second": .ordinal(2), "seconde": .ordinal(2), "tierce": .ordinal(3),
        ],
        gluesWords: false,
        ordinalEndings: ["ieme"],
        stemRepairs: [("", "e"), ("qu", "q"), ("v", "f")],
        pluralEndings: [("s", "")],
        articleOnes: ["un", "une"],
        ratioWords: ["sur"],
        digitOrdinalSuffixes: ["er", "re", "ere", "e", "eme", "ieme", "nd", "nde", "d", "de"],
        percentAfter: [["pourcent"], ["pourcents"], ["pourcentage"], ["pourcentages"], ["pour", "cent"]],
        percentBefore: [["pourcentage", "de"], ["pourcentage", "des"], ["pourcent", "de"], ["pourcent", "des"]],
        fourTwenties: true)
}
