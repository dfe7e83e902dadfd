/// Chinese numerals, simplified and traditional, everyday and formal (大写: "壹佰伍拾"), as Recognizers-Text's Chinese
/// number specs read them: a lone digit after a unit is its tenth ("一千六" 1600, "二百五" 250), "零" holds a place
/// ("一千零五" 1005), "两" is two but no decimal digit ("两百点两" is 200 and 2), "百分之" is a percentage, "成" tenths
/// and "折" the share paid after a discount ("九折" 90 %).
enum ChineseNumerals {
    static let numerals = CJKNumerals(
        digits: [
            "零": 0, "〇": 0, "○": 0,
            "一": 1, "壹": 1, "幺": 1,
            "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2, "俩": 2, "倆": 2,
            "三": 3, "叁": 3, "參": 3, "参": 3, "叄": 3,
            "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6,
            "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
        ],
        decimalDigits: ScalarSet("零〇○一壹二贰貳三叁參参叄四肆五伍六陆陸七柒八捌九玖".unicodeScalars),
        smallUnits: ["十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1_000, "仟": 1_000],
        bigUnits: ["万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000, "兆": 1_000_000_000_000],
        elidesTrailingUnit: true,
        negativeWords: CJKNumerals.words(["负", "負"]),
        decimalPoints: ["点", "點"],
        fractionJoiners: CJKNumerals.words(["分之"]),
        mixedJoiners: CJKNumerals.words(["又"]),
        approximateWords: CJKNumerals.words(["余", "餘", "多", "几", "幾"]),
        dozenWords: CJKNumerals.words(["打"]),
        ordinalPrefixes: CJKNumerals.words(["第"]),
        percentSuffixes: CJKNumerals.words(["%", "％", "个百分点", "個百分點"]),
        tenthWords: ["成"],
        discountWord: "折",
        halfDiscountWords: CJKNumerals.words(["对折", "對折"]),
        halfDiscountLead: "打",
        barePercentIsAlsoFraction: false,
        // Words whose numeral is no number (Recognizers-Text's Chinese spec lists them as texts with none).
        blockedWords: CJKNumerals.words([
            "一切", "壹切", "一看", "两两", "兩兩", "四川", "陆地", "陸地", "大陆", "大陸", "海陆", "海陸", "登陆", "登陸",
            "队伍", "隊伍", "入伍", "退伍", "伍仁", "收拾", "夕拾", "拾取", "拾起", "拾到", "放肆", "肆意", "肆无", "肆無",
            "十足",
        ]),
        // "一美元" is money, "一折" a discount and "二％" a percentage: no number of their own.
        cancellingSuffixes: CJKNumerals.words(["美元", "美刀", "折", "%", "％"]),
        numeralRunsAreNumbers: false)
}
