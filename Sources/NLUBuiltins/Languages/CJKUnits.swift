/// The money, temperature, age and dimension words of a language written without spaces (Chinese, Japanese), read by
/// ``CJKUnitRecognizer`` around the numbers ``CJKNumberReader`` reads: "15元", "1万亿日元", "两美元又三美分",
/// "2222円13銭", "$ 48.2 万", "20摄氏度", "华氏温度98.6度", "摂氏 40度", "20℃", "29岁", "十个月大", "168公分",
/// "一吨半", "時速120キロメートル". Units are named as Recognizers-Text's Chinese and Japanese specs name them ("Chinese
/// yuan" CNY, "Japanese yen" JPY; temperatures "C", "F", "Degree"; "Year", "Kilometer", "Jin").
struct CJKUnits: Sendable {
    /// A currency as a word names it: the spec's unit name and ISO 4217 code (none for "Dollar" said without a country).
    struct Currency: Sendable {
        var word: [Unicode.Scalar]
        var unit: String
        var isoCurrency: String?

        init(_ word: String, _ unit: String, _ isoCurrency: String?) {
            self.word = CJKNumerals.word(word)
            self.unit = unit
            self.isoCurrency = isoCurrency
        }
    }

    /// A sub-unit after an amount of its currency ("三毛", "5銭", "3セント") and how many make one.
    struct Subunit: Sendable {
        var word: [Unicode.Scalar]
        var perUnit: Int64
    }

    /// Currency words written after the amount ("元", "美元", "円", "ドル"), longest first.
    var currencies: [Currency]
    /// Currency signs and names written before the amount ("$", "￥", "US$", "€"; "人民币 8千元" reads the one after).
    var currencyPrefixes: [Currency]
    /// Names written before an amount that also carries its unit word ("人民元八千元").
    var leadingNames: [Currency] = []
    /// Counters between an amount and its currency ("20个比特币").
    var counters: [[Unicode.Scalar]] = []
    /// Sub-units, longest first.
    var subunits: [Subunit]
    /// What may join an amount to its sub-units ("两美元又三美分", "545ドルと5セント").
    var subunitJoiners: [[Unicode.Scalar]]
    /// Whether a bare number after a joiner is hundredths ("100ユーロと30" 100.30).
    var bareSubunitAfterJoiner = false
    /// Names that may repeat the currency after the amount ("8亿元人民币").
    var trailingNames: [[Unicode.Scalar]] = []

    /// Temperature scales written before the amount ("华氏温度98.6度", "摂氏 40度"), longest first, with their unit.
    var temperaturePrefixes: [([Unicode.Scalar], String)]
    /// What may stand between such a scale and the amount ("華氏温度の51度").
    var temperatureJoiners: [[Unicode.Scalar]] = []
    /// Words after the amount: "度" (the spec's "Degree"), "摄氏度" (C), "℃", "°C".
    var temperatureSuffixes: [([Unicode.Scalar], String)]
    /// Scales named without an amount ("convert to 摄氏度"), reported as the unit alone.
    var temperatureNames: [([Unicode.Scalar], String)]

    /// Units of age and dimension written after the amount ("岁", "公里", "平方米", "キロ"), longest first.
    var measures: [(word: [Unicode.Scalar], unit: UnitLexicon.Measure)] = []
    /// Words before an amount of length that make it a speed, and what the length is per ("时速" hour: "时速120公里"
    /// is "Kilometer per hour"; "毎秒" second).
    var speedPrefixes: [(word: [Unicode.Scalar], per: String)] = []
    /// A half after the unit ("一吨半" 1.5).
    var half: [Unicode.Scalar]?
    /// Numerals that also begin a unit word ("千" of "千米", "兆" of "兆字节"), with what they multiply a number by: the
    /// number reader takes them into the number ("12千米" 12000), the unit gives them back (12 Kilometer).
    var unitPrefixNumerals: ScalarMap<Int64> = [:]
    /// A unit written as a numeral ("两", the liang, also "two"): the number reader takes it into the amount before it
    /// ("三十两" 32, "两万两" 22000), so an amount that ends in it, with no unit after, is read again without it and
    /// takes it as its unit ("三十两" 30 Liang, "两万两" 20000 Liang). It is among ``measures`` as a word of its own.
    var numeralUnit: Unicode.Scalar?

    /// Age and dimension words with the unit each names, as the table lists them: `ages` are ages that no duration
    /// reads, `durationAges` those a duration reads the same ("3週間"); longest first, so a look-up takes the first.
    static func measures(ages: [(String, String)], durationAges: [(String, String)] = [], dimensions: [(String, String)])
        -> [(word: [Unicode.Scalar], unit: UnitLexicon.Measure)] {
        let all = ages.map { (CJKNumerals.word($0.0), UnitLexicon.Measure(type: .age, name: $0.1)) }
            + durationAges.map { (CJKNumerals.word($0.0), UnitLexicon.Measure(type: .age, name: $0.1, alsoDuration: true)) }
            + dimensions.map { (CJKNumerals.word($0.0), UnitLexicon.Measure(type: .dimension, name: $0.1)) }
        return all.sorted { $0.0.count > $1.0.count }.map { (word: $0.0, unit: $0.1) }
    }
}
