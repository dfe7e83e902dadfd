import NLUBuiltins
import Testing

/// Chinese and Japanese numbers, ordinals and percentages worked by hand (values as Recognizers-Text's Chinese and
/// Japanese specs write them; offsets in Unicode scalars, end exclusive, as every NLUKit result): the spec corpora
/// are scored in ``LanguageCorpusTests``.
@Suite struct CJKNumberTests {
    private func readings(_ language: BuiltinLanguage, _ text: String,
                          types: Set<BuiltinEntityType> = [.number, .ordinal, .percentage]) -> [String] {
        BuiltinRecognizer(language: language, types: types).entities(in: text).map { entity in
            "\(entity.type.rawValue) [\(entity.scalarRange.lowerBound),\(entity.scalarRange.upperBound)) \(entity.text) \(entity.resolution.value ?? "")"
        }
    }

    /// "两" is two before a unit, a lone digit after a unit of a hundred or more is its tenth ("两千四百五"), "零" holds
    /// a place and stops that ("一万零五"), "十" alone is ten and "十一" eleven, big units compound ("二十万三千").
    @Test(arguments: [
        ("两百", "number [0,2) 两百 200"),
        ("一万零五", "number [0,4) 一万零五 10005"),
        ("十一", "number [0,2) 十一 11"),
        ("二十万三千", "number [0,5) 二十万三千 203000"),
        ("两千四百五", "number [0,5) 两千四百五 2450"),
        ("四万万", "number [0,3) 四万万 400000000"),
        ("一千零十二", "number [0,5) 一千零十二 1012"),
        ("负三十二", "number [0,4) 负三十二 -32"),
        ("三分之一", "number [0,4) 三分之一 0.333333333333333"),
        ("一又二分之一", "number [0,6) 一又二分之一 1.5"),
        ("三点五", "number [0,3) 三点五 3.5"),
        ("３，５６５", "number [0,5) ３，５６５ 3565"),
        ("3千5百万", "number [0,5) 3千5百万 35000000"),
        ("壹佰伍拾", "number [0,4) 壹佰伍拾 150"),
        ("五十打", "number [0,3) 五十打 600"),
    ])
    func readsChineseNumbers(_ text: String, _ expected: String) {
        #expect(readings(.chinese, text, types: [.number]) == [expected])
    }

    /// Chinese numerals one after the other are no number: two neighbours are a rough count ("一两天" a day or two,
    /// "三两个人", "五六个人"), and the spec finds none in "陽光九九" (they were 12, 32, 56 and 99); a word that makes
    /// them something still reads them ("五五折" 55 %). Japanese reads them digit by digit.
    @Test func chineseNumeralRunsAreNoNumberButJapaneseOnesAre() {
        for text in ["三两个人", "五六个人", "陽光九九是食物品牌", "两三天"] {
            #expect(readings(.chinese, text, types: [.number]).isEmpty, "\(text)")
        }
        #expect(BuiltinRecognizer(language: .chinese, types: [.datetime]).entities(in: "一两天后再说").isEmpty)
        #expect(BuiltinRecognizer(language: .chinese, types: [.datetime]).entities(in: "两三个小时").isEmpty)
        #expect(readings(.chinese, "五五折", types: [.percentage]) == ["percentage [0,3) 五五折 55"])
        // Nor an amount of a unit (they were 56 years, 56 km, 12 yuan, 78 degrees); "二两" is two liang.
        let units: Set<BuiltinEntityType> = [.age, .dimension, .currency, .temperature]
        for text in ["五六岁", "五六公里", "一两块钱", "七八度", "三两米"] {
            #expect(readings(.chinese, text, types: units).isEmpty, "\(text)")
        }
        #expect(readings(.chinese, "二两", types: units) == ["dimension [0,2) 二两 2"])
        #expect(readings(.chinese, "三天后", types: [.number]) == ["number [0,1) 三 3"])
        #expect(readings(.japanese, "まだ二五〇があります", types: [.number]) == ["number [2,5) 二五〇 250"])
    }

    /// Japanese reads a digit after a unit as units ("一万三" 10003, where Chinese reads 13000), "・" as the decimal
    /// point, "分の" for fractions with "と" before them, and "マイナス" for minus.
    @Test(arguments: [
        ("一億二千万", "number [0,5) 一億二千万 120000000"),
        ("一万三", "number [0,3) 一万三 10003"),
        ("〇・〇八", "number [0,4) 〇・〇八 0.08"),
        ("3分の1", "number [0,4) 3分の1 0.333333333333333"),
        ("二と四分の一", "number [0,6) 二と四分の一 2.25"),
        ("マイナス五", "number [0,5) マイナス五 -5"),
        ("１４億１４０２万１１００", "number [0,12) １４億１４０２万１１００ 1414021100"),
    ])
    func readsJapaneseNumbers(_ text: String, _ expected: String) {
        #expect(readings(.japanese, text, types: [.number]) == [expected])
    }

    /// Ordinals with "第" before the number, Japanese "番目" / "つ目" / "位" after it, and the relative ones.
    @Test(arguments: [
        (BuiltinLanguage.chinese, "第一百零一", ["ordinal [0,5) 第一百零一 101"]),
        (.chinese, "第３名", ["ordinal [0,2) 第３ 3"]),
        (.japanese, "3番目の席", ["ordinal [0,3) 3番目 3"]),
        (.japanese, "三つ目", ["ordinal [0,3) 三つ目 3"]),
        (.japanese, "最後から三番目", ["ordinal [0,7) 最後から三番目 end-2"]),
        (.japanese, "次のもの、名前", ["ordinal [0,4) 次のもの current+1"]),
    ])
    func readsOrdinals(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text, types: [.ordinal]) == expected)
    }

    /// Percentages: "百分之" before the number, "%" / "％" / "个百分点" / "パーセント" after it, tenths ("五成", "5割",
    /// "3割8分7厘"), and the Chinese discount, the share paid ("九折" 90 %, "七五折" 75 %).
    @Test(arguments: [
        (BuiltinLanguage.chinese, "百分之三点五", ["percentage [0,6) 百分之三点五 3.5"]),
        (.chinese, "千分之一", ["percentage [0,4) 千分之一 0.1"]),
        (.chinese, "５０％和五成", ["percentage [0,3) ５０％ 50", "percentage [4,6) 五成 50"]),
        (.chinese, "九折，七五折", ["percentage [0,2) 九折 90", "percentage [3,6) 七五折 75"]),
        (.japanese, "5割と3割8分7厘", ["percentage [0,2) 5割 50", "percentage [3,9) 3割8分7厘 38.7"]),
        (.japanese, "２０パーセント", ["percentage [0,7) ２０パーセント 20"]),
    ])
    func readsPercentages(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text, types: [.percentage]) == expected)
    }

    /// Inside a sentence without spaces the spans are exact: the numbers glued to the words around them, words that
    /// hold a numeral and are none ("四川") left alone, and a number inside a percentage or an ordinal reported on its
    /// own only where its wider kind was not asked for.
    @Test func spansInsideUnspacedSentencesAreExact() {
        #expect(readings(.chinese, "我家在四川，有两千三百五十个苹果和百分之二十的梨") ==
                ["number [7,13) 两千三百五十 2350", "percentage [17,22) 百分之二十 20"])
        #expect(readings(.chinese, "我家在四川，有两千三百五十个苹果和百分之二十的梨", types: [.number]) ==
                ["number [7,13) 两千三百五十 2350", "number [20,22) 二十 20"])
        #expect(readings(.japanese, "答えは１９２です。第3位は三番目", types: [.number, .ordinal]) ==
                ["number [3,6) １９２ 192", "ordinal [9,11) 第3 3", "ordinal [13,16) 三番目 3"])
        // Offsets count Unicode scalars: a character outside the Basic Multilingual Plane is one.
        #expect(readings(.chinese, "𠀀三个", types: [.number]) == ["number [1,2) 三 3"])
    }

    /// Input that would overflow or never end: a per-hundred whose units multiply past Int64, exponents and powers past
    /// a Double, the last of a count from the end.
    @Test func hostileNumbersAreReadWithoutOverflow() {
        #expect(readings(.chinese, "亿亿亿分之一", types: [.percentage]) == [])
        #expect(readings(.chinese, "1e9999", types: [.number]) == ["number [0,1) 1 1"])
        #expect(readings(.chinese, "2^9999", types: [.number]) == ["number [0,1) 2 2", "number [2,6) 9999 9999"])
        #expect(readings(.japanese, "十の九千乗", types: [.number]) == ["number [0,1) 十 10", "number [2,4) 九千 9000"])
        #expect(readings(.japanese, "最後から1番目", types: [.ordinal]) == ["ordinal [0,7) 最後から1番目 end+0"])
    }

    /// Money and temperatures: the currency after the amount or before it, sub-units, a scale before or after the
    /// amount, and a scale named alone (the unit without a value).
    @Test(arguments: [
        (BuiltinLanguage.chinese, "东芝重组另需1万亿日元，五元三毛，￥300", [
            "currency [6,11) 1万亿日元 1000000000000 Japanese yen", "currency [12,16) 五元三毛 5.3 Chinese yuan",
            "currency [17,21) ￥300 300 Chinese yuan"]),
        (.chinese, "华氏温度51度转换为摄氏度，20℃", [
            "temperature [0,7) 华氏温度51度 51 F", "temperature [10,13) 摄氏度  C", "temperature [14,17) 20℃ 20 C"]),
        (.japanese, "2222円13銭と545ドルと5セント", [
            "currency [0,8) 2222円13銭 2222.13 Japanese yen", "currency [9,19) 545ドルと5セント 545.05 United States dollar"]),
        (.japanese, "華氏 マイナス 5度、三十九度", ["temperature [0,10) 華氏 マイナス 5度 -5 F", "temperature [11,15) 三十九度 39 Degree"]),
    ])
    func readsMoneyAndTemperatures(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        let found = BuiltinRecognizer(language: language, types: [.currency, .temperature]).entities(in: text).map { entity in
            let (value, unit): (String, String) = switch entity.resolution {
            case .value(let value, let unit, _): (value, unit ?? "")
            case .unit(let unit): ("", unit)
            case .dateTimes: ("", "")
            }
            return "\(entity.type.rawValue) [\(entity.scalarRange.lowerBound),\(entity.scalarRange.upperBound)) \(entity.text) \(value) \(unit)"
        }
        #expect(found == expected)
    }

    /// Chinese and Japanese read every kind now that they read date-times (LanguageDateTimeTests); a recognizer
    /// asked for some reports those only.
    @Test func everyKindIsReportedAndOnlyThoseAskedFor() {
        #expect(BuiltinRecognizer(language: .chinese, types: [.datetime, .date, .duration]).types == [.datetime, .date, .duration])
        #expect(BuiltinRecognizer(language: .japanese).types == Set(BuiltinEntityType.allCases))
    }
}
