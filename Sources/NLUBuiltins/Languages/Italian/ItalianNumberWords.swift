/// Italian number words (Recognizers-Text's Italian specifications, read for their meaning): compounds read
/// piece by piece ("centoventicinque", "ventunbilionitrecento", "duecentoduemila") with the elided tens
/// ("ventuno", "trentotto"), ordinals by "-esimo" ("ventitreesimo", "millesimo"), "primo"…"decimo", "11°",
/// "21esima", and "percento".
enum ItalianNumberWords {
    static let lexicon = NumberLexicon(
        morphemes: [
            "zero": .value(0), "uno": .value(1), "un": .value(1), "una": .value(1), "due": .value(2), "tre": .value(3),
            "quattro": .value(4), "cinque": .value(5), "sei": .value(6), "sette": .value(7), "otto": .value(8),
            "nove": .value(9), "dieci": .value(10), "undici": .value(11), "dodici": .value(12), "tredici": .value(13),
            "quattordici": .value(14), "quindici": .value(15), "sedici": .value(16), "diciassette": .value(17),
            "diciotto": .value(18), "diciannove": .value(19), "venti": .value(20), "trenta": .value(30),
            "quaranta": .value(40), "cinquanta": .value(50), "sessanta": .value(60), "settanta": .value(70),
            "ottanta": .value(80), "novanta": .value(90),
            "cento": .hundred, "mille": .scale(1_000), "mila": .scale(1_000),
            "milione": .scale(1_000_000), "milioni": .scale(1_000_000), "miliardo": .scale(1_000_000_000),
            "miliardi": .scale(1_000_000_000), "bilione": .scale(1_000_000_000_000), "bilioni": .scale(1_000_000_000_000),
            "trilione": .scale(1_000_000_000_000_000_000), "trilioni": .scale(1_000_000_000_000_000_000),
            "e": .connector, "meno": .negative, "virgola": .decimalPoint, "punto": .decimalPoint, "dozzina": .dozen, "dozzine": .dozen,
            "mezzo": .fraction(2), "mezza": .fraction(2), "mezzi": .fraction(2), "mezze": .fraction(2),
            "primo": .ordinal(1), "prima": .ordinal(1), "secondo": .ordinal(2), "seconda": .ordinal(2),
            "terzo": .ordinal(3), "terza": .ordinal(3), "quarto": .ordinal(4), "quarta": .ordinal(4),
            "quinto": .ordinal(5), "quinta": .ordinal(5), "sesto": .ordinal(6), "sesta": .ordinal(6),
            "settimo": .ordinal(7), "settima": .ordinal(7), "ottavo": .ordinal(8), "ottava": .ordinal(8),
            "nono": .ordinal(9), "nona": .ordinal(9), "decimo": .ordinal(10), "decima": .ordinal(10),
        ],
        // Tens lose their vowel before "uno" and "otto" ("ventuno", "trentotto"); "cento" before "ottanta".
        gluedOnly: [
            "vent": .value(20), "trent": .value(30), "quarant": .value(40), "cinquant": .value(50),
            "sessant": .value(60), "settant": .value(70), "ottant": .value(80), "novant": .value(90), "cent": .hundred,
        ],
        gluesWords: true,
        ordinalEndings: ["esimo", "esima", "esimi", "esime"],
        stemRepairs: [("", "i"), ("", "e"), ("", "o")],
        pluralEndings: [("i", "o"), ("e", "a")],
        articleOnes: ["un", "uno", "una"],
        ratioWords: ["su"],
        digitOrdinalSuffixes: ["o", "a", "esimo", "esima", "mo", "ma", "°", "º", "ª"],
        percentAfter: [["percento"], ["percentuale"], ["per", "cento"]],
        relativeOrdinals: RelativeOrdinalPhrases([
            ("end+0", RelativeOrdinalPhrases.inflected(["ultim", "l'ultim"], ["o", "a", "i", "e"])),
            ("end-1", RelativeOrdinalPhrases.inflected(["penultim"], ["o", "a", "i", "e"])
                + ["quello prima dell'ultimo", "quella prima dell'ultima"]),
            ("end-2", RelativeOrdinalPhrases.inflected(["terzultim"], ["o", "a", "i", "e"])),
            ("current+1", RelativeOrdinalPhrases.inflected(["prossim", "successiv"], ["o", "a", "i", "e"])),
            ("current-1", ["precedente", "precedenti"]),
        ]))
}
