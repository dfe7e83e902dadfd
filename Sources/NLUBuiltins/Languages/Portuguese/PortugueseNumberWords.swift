/// Portuguese number words, European and Brazilian (Recognizers-Text's Portuguese specifications, read for
/// their meaning): "trezentos e trinta e um", "dezasseis"/"dezesseis", ordinals that add up ("centésimo
/// vigésimo quinto"), "2a", "30º", "por cento".
enum PortugueseNumberWords {
    static let lexicon = NumberLexicon(
        morphemes: RomanceOrdinals.withFeminines([
            "zero": .value(0), "um": .value(1), "hum": .value(1), "uma": .value(1), "dois": .value(2), "duas": .value(2), "tres": .value(3),
            "quatro": .value(4), "cinco": .value(5), "seis": .value(6), "sete": .value(7), "oito": .value(8),
            "nove": .value(9), "dez": .value(10), "onze": .value(11), "doze": .value(12), "treze": .value(13),
            "catorze": .value(14), "quatorze": .value(14), "quinze": .value(15), "dezesseis": .value(16),
            "dezasseis": .value(16), "dezessete": .value(17), "dezassete": .value(17), "dezoito": .value(18),
            "dezenove": .value(19), "dezanove": .value(19), "vinte": .value(20), "trinta": .value(30),
            "quarenta": .value(40), "cinquenta": .value(50), "sessenta": .value(60), "setenta": .value(70),
            "oitenta": .value(80), "noventa": .value(90),
            "cem": .hundred, "cento": .hundred,
            "duzentos": .hundreds(200), "duzentas": .hundreds(200), "trezentos": .hundreds(300), "trezentas": .hundreds(300),
            "quatrocentos": .hundreds(400), "quatrocentas": .hundreds(400), "quinhentos": .hundreds(500),
            "quinhentas": .hundreds(500), "seiscentos": .hundreds(600), "seiscentas": .hundreds(600),
            "setecentos": .hundreds(700), "setecentas": .hundreds(700), "oitocentos": .hundreds(800),
            "oitocentas": .hundreds(800), "novecentos": .hundreds(900), "novecentas": .hundreds(900),
            "mil": .scale(1_000), "milhao": .scale(1_000_000), "milhoes": .scale(1_000_000),
            "bilhao": .scale(1_000_000_000), "bilhoes": .scale(1_000_000_000),
            "trilhao": .scale(1_000_000_000_000), "trilhoes": .scale(1_000_000_000_000),
            "e": .connector, "menos": .negative, "virgula": .decimalPoint, "com": .decimalPoint,
            "duzia": .dozen, "duzias": .dozen,
            "meio": .fraction(2), "meia": .fraction(2), "terco": .fraction(3), "tercos": .fraction(3),
            "primeiro": .ordinal(1), "segundo": .ordinal(2), "terceiro": .ordinal(3), "quarto": .ordinal(4),
            "quinto": .ordinal(5), "sexto": .ordinal(6), "setimo": .ordinal(7), "oitavo": .ordinal(8), "nono": .ordinal(9),
            "decimo": .ordinal(10), "undecimo": .ordinal(11), "duodecimo": .ordinal(12), "vigesimo": .ordinal(20),
            "trigesimo": .ordinal(30), "quadragesimo": .ordinal(40), "quinquagesimo": .ordinal(50),
            "sexagesimo": .ordinal(60), "septuagesimo": .ordinal(70), "setuagesimo": .ordinal(70),
            "octogesimo": .ordinal(80), "nonagesimo": .ordinal(90), "centesimo": .ordinal(100),
            "ducentesimo": .ordinal(200), "trecentesimo": .ordinal(300), "tricentesimo": .ordinal(300),
            "quadringentesimo": .ordinal(400), "quingentesimo": .ordinal(500), "sexcentesimo": .ordinal(600),
            "seiscentesimo": .ordinal(600), "septingentesimo": .ordinal(700), "octingentesimo": .ordinal(800),
            "nongentesimo": .ordinal(900), "noningentesimo": .ordinal(900), "milesimo": .ordinalScale(1_000),
            "milionesimo": .ordinalScale(1_000_000), "bilionesimo": .ordinalScale(1_000_000_000),
        ]),
        gluesWords: false,
        pluralEndings: [("os", "o"), ("as", "a")],
        ordinalsContinue: true,
        articleOnes: ["um", "uma"],
        ratioWords: ["sobre"],
        digitOrdinalSuffixes: ["o", "a", "º", "ª"],
        percentAfter: [["por", "cento"], ["porcento"]],
        // The old spelling of "um" ("hum mil e três") is mostly a hesitation when alone.
        weakWords: ["hum"],
        connectorJoinsNumerator: true,
        denominatorWords: ["avos", "avo"],
        relativeOrdinals: RelativeOrdinalPhrases([
            ("end+0", RelativeOrdinalPhrases.inflected(["últim"], ["o", "a", "os", "as"])),
            ("end-1", RelativeOrdinalPhrases.inflected(["penúltim"], ["o", "a", "os", "as"])
                + ["último mas um", "última mas uma", "anterior ao último", "anterior à última"]),
            ("end-2", RelativeOrdinalPhrases.inflected(["antepenúltim"], ["o", "a", "os", "as"])),
            ("current+1", ["seguinte", "seguintes"] + RelativeOrdinalPhrases.inflected(["próxim"], ["o", "a", "os", "as"])),
            ("current-1", ["anterior", "anteriores"]),
        ]))
}
