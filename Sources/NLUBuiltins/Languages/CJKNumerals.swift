/// The numerals of a language written without spaces (Chinese, Japanese) and the few rules that differ between
/// them; ``CJKNumberReader`` reads every such language with it, on Unicode scalars rather than words, since a
/// number there is glued to the characters around it ("小明有十个手指头", "答えは１９２です").
///
/// Values follow Microsoft Recognizers-Text's Chinese and Japanese specs: "两千四百五" 2450, "一万零五" 10005,
/// "四万万" 4e8, "三分之一" 1/3, "百分之五十" 50 %, "五成" 50 %, "九折" 90 %, "第三" the third, "3番目" the third.
struct CJKNumerals: Sendable {
    /// Characters that are one digit: "一" 1, "两" 2, "叁" 3, "〇" 0 (ASCII and fullwidth digits are read apart).
    var digits: ScalarMap<Int>
    /// Digits that may also follow a decimal point: all but "两" and its variants ("两百点两" is 200 and 2).
    var decimalDigits: ScalarSet
    /// Units within a group of four digits: "十" 10, "百" 100, "千" 1000 and their formal forms ("拾", "佰", "仟").
    var smallUnits: ScalarMap<Int64>
    /// Units that close a group of four digits: "万" 1e4, "亿"/"億" 1e8, "兆" 1e12; they compound ("万亿" 1e12).
    var bigUnits: ScalarMap<Int64>
    /// Whether a lone digit after a unit is a tenth of it (Chinese "一千六" 1600, "九万四" 94000); Japanese reads it as
    /// units ("一万三" 10003).
    var elidesTrailingUnit: Bool
    /// Words meaning minus before a number: "负", "マイナス".
    var negativeWords: [[Unicode.Scalar]]
    /// Decimal points written between digits in words: "点", "・".
    var decimalPoints: ScalarSet
    /// Separators of thousands between ASCII or fullwidth digits, besides "," and "，" (Japanese "、": "６、５４４").
    var extraGroupSeparators: ScalarSet = []
    /// Whether a comma before exactly two digits is a decimal comma (Japanese "5,00", "５、００": 5).
    var decimalCommaBeforeTwoDigits = false
    /// A power said in words: base, `of`, exponent, `power` ("1.1の23乗"), or base `times` ten `of`… ("12×10の14乗").
    var powerWords: (of: [Unicode.Scalar], power: [Unicode.Scalar], times: [Unicode.Scalar])?
    /// What joins a denominator to its numerator: "分之" ("三分之一" 1/3), "分の" ("3分の1").
    var fractionJoiners: [[Unicode.Scalar]]
    /// What joins a whole number to the fraction after it: "又" ("一又二分之一" 1.5), "と" ("1と2分の1").
    var mixedJoiners: [[Unicode.Scalar]]
    /// Words of "some more" between a number and a big unit: "十余万" 1e5, "二十几万", "二十数万".
    var approximateWords: [[Unicode.Scalar]]
    /// Words of a dozen after a number: "打", "ダース".
    var dozenWords: [[Unicode.Scalar]]
    /// "半": one half, when a unit or a dozen follows ("半百" 50, "半ダース" 6).
    var half: Unicode.Scalar = "半"
    /// Words before a number that make it an ordinal: "第", "だい".
    var ordinalPrefixes: [[Unicode.Scalar]]
    /// Words after a number that make it an ordinal, kept in its text: "番目", "位", "つ目".
    var ordinalSuffixes: [[Unicode.Scalar]] = []
    /// Words that are an ordinal on their own: "最初" 1.
    var ordinalWords: [([Unicode.Scalar], String)] = []
    /// Words after a number that make it a percentage: "%", "个百分点", "パーセント" (spaces allowed inside).
    var percentSuffixes: [[Unicode.Scalar]]
    /// Words that are a percentage on their own ("半額" 50).
    var percentWords: [([Unicode.Scalar], String)] = []
    /// Tenths written after a number ("五成", "5割" 50 %), with the hundredths and thousandths that may follow ("3割8分7厘").
    var tenthWords: ScalarSet
    var hundredthWord: Unicode.Scalar?
    var thousandthWord: Unicode.Scalar?
    /// Words that may follow a tenth and belong to it ("割引", "割引き": a discount written as its share).
    var tenthTails: [[Unicode.Scalar]] = []
    /// A discount written as the share paid (Chinese "九折" 90 %, "七五折" 75 %); nil where the language has none.
    var discountWord: Unicode.Scalar?
    /// Words that are a discount share on their own after the given lead ("打对折" 50 %).
    var halfDiscountWords: [[Unicode.Scalar]] = []
    var halfDiscountLead: Unicode.Scalar?
    /// Whether "百分之五" without a number before "百" is only a percentage (Chinese) or also the fraction 5/100 as a
    /// number (Japanese "百分の一" 0.01).
    var barePercentIsAlsoFraction: Bool
    /// Words holding a numeral character that are no number ("四川", "一切", "陆地", "收拾"): the numeral is skipped.
    var blockedWords: [[Unicode.Scalar]]
    /// Words after a number that make it part of another kind, so no number is reported: Chinese "美元" (money) and
    /// "折" (a discount), Japanese lengths and volumes ("メートル", "リットル").
    var cancellingSuffixes: [[Unicode.Scalar]] = []
    /// Ordinals relative to the end or the current item ("最後" end+0, "次" current+1), read by ``CJKRelativeOrdinals``.
    var relativeOrdinals: CJKRelativeOrdinals?
    /// Whether numerals one after the other without units are a number of their own, read digit by digit (Japanese
    /// "二五〇" 250, "一九九九"). In Chinese they are not: two neighbours are a rough count ("一两天" a day or two,
    /// "五六个人" five or six people, "三两个"), and Recognizers-Text's Chinese spec finds no number in "陽光九九";
    /// such runs are read only where a word makes them something ("五五折" 55 %, "二零零四年" a year).
    var numeralRunsAreNumbers = true

    /// The characters ``CJKNumberReader/number(at:)`` can find a number at: numerals, small units, "半", ASCII and
    /// fullwidth digits, a decimal point before digits, a sign, a minus word's first character. Recognizers pass
    /// over every other character without trying to read there.
    var numberStarts: [Unicode.Scalar] {
        let digits = (0x30...0x39).compactMap(Unicode.Scalar.init) + (0xFF10...0xFF19).compactMap(Unicode.Scalar.init)
        return self.digits.keys + smallUnits.keys + [half] + digits + [".", "．", "-", "－", "−"]
            + negativeWords.compactMap(\.first)
    }

    /// The characters of `text` as the tables hold words.
    static func word(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
    static func words(_ texts: [String]) -> [[Unicode.Scalar]] { texts.map(word) }

    /// Whether `scalar` is a CJK ideograph (a numeral's neighbour that may glue to it, "四川").
    static func isIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value) || (0xF900...0xFAFF).contains(value)
    }
}
