/// Japanese numerals as Recognizers-Text's Japanese number specs read them: units read as written ("一万三" 10003,
/// "九百九" 909: no tenth after a unit, unlike Chinese), "・" or "点" as the decimal point ("〇・〇八"), "分の" for
/// fractions ("3分の1"), "と" / "また" before one ("1と2分の1"), "マイナス" for minus, "割" tenths ("3割8分7厘" 38.7 %),
/// "パーセント", ordinals written "第3", "3番目", "2位", "一等", and relative ones ("最後" end+0, "次" current+1).
enum JapaneseNumerals {
    static let numerals = CJKNumerals(
        digits: [
            "零": 0, "〇": 0, "一": 1, "壱": 1, "二": 2, "弐": 2, "三": 3, "参": 3, "叁": 3, "四": 4, "五": 5,
            "六": 6, "七": 7, "八": 8, "九": 9,
        ],
        decimalDigits: ScalarSet("零〇一壱二弐三参叁四五六七八九".unicodeScalars),
        smallUnits: ["十": 10, "拾": 10, "百": 100, "千": 1_000],
        bigUnits: ["万": 10_000, "萬": 10_000, "億": 100_000_000, "亿": 100_000_000, "兆": 1_000_000_000_000],
        elidesTrailingUnit: false,
        negativeWords: CJKNumerals.words(["マイナス"]),
        decimalPoints: ["・", "点"],
        extraGroupSeparators: ["、"],
        decimalCommaBeforeTwoDigits: true,
        powerWords: (of: CJKNumerals.word("の"), power: CJKNumerals.word("乗"), times: CJKNumerals.word("×")),
        fractionJoiners: CJKNumerals.words(["分の"]),
        mixedJoiners: CJKNumerals.words(["と", "また", "又", "は"]),
        approximateWords: CJKNumerals.words(["余り", "あまり", "余", "数"]),
        dozenWords: CJKNumerals.words(["ダース"]),
        ordinalPrefixes: CJKNumerals.words(["第", "だい"]),
        ordinalSuffixes: CJKNumerals.words(["番目", "回目", "つ目", "位", "等"]),
        ordinalWords: [(CJKNumerals.word("最初"), "1"), (CJKNumerals.word("ファースト"), "1")],
        percentSuffixes: CJKNumerals.words(["%", "％", "パーセント", "ポイント"]),
        percentWords: [(CJKNumerals.word("半額"), "50")],
        tenthWords: ["割"],
        hundredthWord: "分",
        thousandthWord: "厘",
        tenthTails: CJKNumerals.words(["引き", "引"]),
        barePercentIsAlsoFraction: true,
        blockedWords: CJKNumerals.words(["西九条", "一見", "陸地", "四川", "一般", "一緒", "一度", "一体", "一応", "二次"]),
        // Lengths, volumes and weights are dimensions, not numbers (the spec's "１８０ミリリットル" has none).
        // and a share is a percentage ("55.579パーセント", "一割"), no number of its own.
        cancellingSuffixes: CJKNumerals.words([
            "キロメートル", "センチメートル", "メートル", "ミリリットル", "リットル", "キログラム", "グラム", "%", "％", "パーセント", "割",
        ]),
        relativeOrdinals: CJKRelativeOrdinals(
            words: [(CJKNumerals.word("最後"), "end+0"), (CJKNumerals.word("現在"), "current+0"),
                    (CJKNumerals.word("次"), "current+1"), (CJKNumerals.word("前"), "current-1")],
            standAlone: ["次", "前"],
            notBefore: CJKNumerals.words(["から"]),
            fromEnd: CJKNumerals.word("最後から"),
            countedEndings: [(CJKNumerals.word("番目"), 1), (CJKNumerals.word("つ前"), 0)],
            extensions: CJKNumerals.words(["のもの", "のこと"])))
}
