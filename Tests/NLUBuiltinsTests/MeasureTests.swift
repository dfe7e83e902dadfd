import Foundation
import NLUBuiltins
import NLUTestSupport
import Testing

/// Ages and dimensions (Recognizers-Text's AgeModel and DimensionModel): readings worked by hand, how they sit
/// beside numbers and date-times, and linear time on inputs built to make a unit look-up run on.
@Suite struct MeasureTests {
    private func readings(_ language: BuiltinLanguage, _ text: String,
                          types: Set<BuiltinEntityType> = [.age, .dimension]) -> [String] {
        BuiltinRecognizer(language: language, types: types).entities(in: text).map { entity -> String in
            switch entity.resolution {
            case .value(let value, let unit, _): return "\(entity.type.rawValue) \(entity.text) \(value)" + (unit.map { " \($0)" } ?? "")
            case .unit(let unit): return "\(entity.type.rawValue) \(entity.text) \(unit)"
            case .dateTimes: return "\(entity.type.rawValue) \(entity.text)"
            }
        }
    }

    /// English, worked by hand: "old" and "of age" make an age, a prefix "age" too; units glued to their digits, after
    /// a hyphen, in brackets, with a scale; case tells a byte from a bit; a clock's "pm" and a date's "in" are no units.
    @Test(arguments: [
        ("She is 29 years old, her son eighteen months of age; a 5-year-old; patient of age 87",
         ["age 29 years old 29 Year", "age eighteen months of age 18 Month", "age 5-year-old 5 Year", "age age 87 87 Age"]),
        ("a 3-inch pipe, 2.4 billion gallons, 660 square meters, 190 km2 and 10km/hr",
         ["dimension 3-inch 3 Inch", "dimension 2.4 billion gallons 2400000000 Gallon", "dimension 660 square meters 660 Square meter",
          "dimension 190 km2 190 Square kilometer", "dimension 10km/hr 10 Kilometer per hour"]),
        ("100 MB, 100 mb, 20 (kg), 7.62mm, 1.8M dollars", ["dimension 100 MB 100 Megabyte", "dimension 100 mb 100 Megabit",
                                                          "dimension 20 (kg) 20 Kilogram", "dimension 7.62mm 7.62 Millimeter"]),
        ("meet at 2 pm, or 2:00 pm, for 2 in April; 12 m 2 dm", ["dimension 12 m 12 Meter", "dimension 2 dm 2 Decimeter"]),
        ("a metric ton is 2,204.62 pounds; rotate 90 degrees; it is 24 degrees",
         ["dimension metric ton Metric ton", "dimension 2,204.62 pounds 2204.62 Pound", "dimension 90 degrees 90 Degree"]),
    ])
    func readsEnglish(_ text: String, _ expected: [String]) {
        #expect(readings(.english, text) == expected)
    }

    /// The other languages, worked by hand: ages said with a time word (and "alt", "oud", "di età"), units in the
    /// language's names, a connector before the unit, a scale after a decimal, an article that says one.
    @Test(arguments: [
        (BuiltinLanguage.french, "J'ai 29 ans, 2,4 milliards de gallons et 660 mètres carrés",
         ["age 29 ans 29 Ans", "dimension 2,4 milliards de gallons 2400000000 Gallon", "dimension 660 mètres carrés 660 Mètre carré"]),
        (.spanish, "tengo noventa y cinco años, 1/4 de milla, 188 millas por hora",
         ["age noventa y cinco años 95 Año", "dimension 1/4 de milla 0,25 Milla", "dimension 188 millas por hora 188 Milla por hora"]),
        (.german, "Sie ist 60 Jahre alt, 195,63 Quadratmeter, 120 km/h",
         ["age 60 Jahre alt 60 Year", "dimension 195,63 Quadratmeter 195,63 Square meter", "dimension 120 km/h 120 Kilometer per hour"]),
        (.portuguese, "dezoito meses, 0,9 bilhões de pés cúbicos, 3 polegadas",
         ["age dezoito meses 18 Mês", "dimension 0,9 bilhões de pés cúbicos 900000000 Pé cúbico", "dimension 3 polegadas 3 Polegada"]),
        (.italian, "novantacinque anni di età, 7,62 mm", ["age novantacinque anni di età 95 Anno", "dimension 7,62 mm 7,62 Millimetro"]),
        (.dutch, "Op 6-jarige leeftijd, een metrische ton, driehonderd MB, acht mb",
         ["age 6-jarige leeftijd 6 Year", "dimension een metrische ton 1 Metric ton", "dimension driehonderd MB 300 Megabyte",
          "dimension acht mb 8 Megabit"]),
        (.chinese, "她已经满七周岁了, 十个月大, 如今身高168公分, 一吨半, 12千米, 时速120公里",
         ["age 七周岁 7 Year", "age 十个月大 10 Month", "dimension 168公分 168 Centimeter", "dimension 一吨半 1.5 Ton",
          "dimension 12千米 12 Kilometer", "dimension 时速120公里 120 Kilometer per hour"]),
        (.japanese, "私は29歳です。90日齢、75ミリリットル、0.9兆立方フィート、毎秒23メートル",
         ["age 29歳 29 Year", "age 90日齢 90 Day", "dimension 75ミリリットル 75 Milliliter",
          "dimension 0.9兆立方フィート 900000000000 Cubic foot", "dimension 毎秒23メートル 23 Meter per second"]),
    ])
    func readsOtherLanguages(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text) == expected)
    }

    /// Lengths said in two units are one length in the larger, as the English spec reads "5 ft 2 in" (5 + 2/12, written
    /// at full precision); the smaller part must be less than one of the larger, and "2 in" alone stays ambiguous.
    @Test(arguments: [
        ("he is 5 feet and 2 inches, 6'2\" or 6′2″ tall", ["dimension 5 feet and 2 inches 5.166666666666667 Foot",
                                                         "dimension 6'2\" 6.166666666666667 Foot", "dimension 6′2″ 6.166666666666667 Foot"]),
        ("12 ft 2 in, 5 feet 0 inches, 5 feet 14 inches, for 2 in April",
         ["dimension 12 ft 2 in 12.166666666666666 Foot", "dimension 5 feet 0 inches 5 Foot", "dimension 5 feet 5 Foot",
          "dimension 14 inches 14 Inch"]),
    ])
    func readsLengthsInTwoUnits(_ text: String, _ expected: [String]) {
        #expect(readings(.english, text) == expected)
    }

    /// Worked by hand from the specs' cases: a half said as a word before a unit, a decimal point in a language that
    /// writes a comma, the end of a range ("75-300mm", "75 -300ミリ") and not a code ("scp2-173m"); Chinese liang,
    /// which the number reader takes for "two" of the next place ("三十两" 32), hertz, kilowatts and kilocalories.
    @Test(arguments: [
        (BuiltinLanguage.spanish, "dar media vuelta, medio kilo, media hora", ["dimension media vuelta 0,5 Turn", "dimension medio kilo 0,5 Kilogramo"]),
        (.portuguese, "dar meia volta", ["dimension meia volta 0,5 Turn"]),
        (.italian, "fare mezzo giro, ef 75-300mm", ["dimension mezzo giro 0,5 Turn", "dimension 300mm 300 Millimetro"]),
        (.french, "L'angle est de 0.8rad, 1.000kg", ["dimension 0.8rad 0,8 Radian"]),
        (.english, "scp2-173m", []),
        (.japanese, "SLRレンズ ef 75 -300ミリ", ["dimension 300ミリ 300 Millimeter"]),
        (.chinese, "三十两银子, 三千两百两, 两万两, 1234两, 两公里, 一两天, 三两个人",
         ["dimension 三十两 30 Liang", "dimension 三千两百两 3200 Liang", "dimension 两万两 20000 Liang", "dimension 1234两 1234 Liang",
          "dimension 两公里 2 Kilometer"]),
        (.chinese, "1兆赫兹, 100赫兹, 一百千瓦, 323千卡, 2大卡", ["dimension 1兆赫兹 1 Megahertz", "dimension 100赫兹 100 Hertz",
                                                        "dimension 一百千瓦 100 Kilowatt", "dimension 323千卡 323 Kilocalorie",
                                                        "dimension 2大卡 2 Kilocalorie"]),
    ])
    func readsHalvesRangesAndUnitsOfTheSpecs(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text) == expected)
    }

    /// Like money, a unit takes its amount in: "5 kg" is one dimension, not also the number 5; an age that is only a
    /// time word yields to the duration that reads the same span.
    @Test func theAmountBelongsToItsUnit() {
        let all = readings(.english, "ship 5 kg and 3 boxes, he is 40 years old", types: Set(BuiltinEntityType.allCases))
        #expect(all == ["dimension 5 kg 5 Kilogram", "number 3 3", "age 40 years old 40 Year"])
    }

    /// A currency code that is also a unit of measure ("ft" the forint and the foot, "cup", "kgs", "kn"): in lower case
    /// after an amount it is the measure, and takes no hundredths ("5 ft 14 in" was 5.14 forints); "Ft" is the forint.
    @Test func aLowerCaseUnitThatIsAlsoACurrencyCodeIsTheMeasure() {
        let all = Set(BuiltinEntityType.allCases)
        #expect(readings(.english, "he is 5 ft tall", types: all) == ["dimension 5 ft 5 Foot"])
        #expect(readings(.english, "he is 5 ft 14 in", types: all) == ["dimension 5 ft 5 Foot", "dimension 14 in 14 Inch"])
        #expect(readings(.english, "add 2 cup of flour and 10 kn of wind", types: all) == ["dimension 2 cup 2 Cup", "dimension 10 kn 10 Knot"])
        #expect(readings(.english, "it costs 500 Ft", types: all) == ["currency 500 Ft 500 Hungarian forint"])
        #expect(readings(.english, "it costs 500 ft", types: [.currency]) == ["currency 500 ft 500 Hungarian forint"])
    }

    /// Runs of amounts and unit words that never finish a phrase ("square square", "years of of"), hyphens, brackets and
    /// glued digits: ten times the text is about ten times the work.
    @Test(arguments: [
        (BuiltinLanguage.english, "5 years years of of age 3 square square sq 10km/h/h/h 20 (kg (kg 7.62mm-5 m2m2 age age 4 "),
        (.english, "1 2 3 4 metric metric fl fl. oz 5-6-7-year-old scp-173m 2:00 pm at 2 pm 3 MB Mb mB 3 yo "),
        (.english, "5 ft 2 in 5 feet and and 2 inches 6'2\" 6'2 6'' ft ft 2 in in 1-2-3-4 mm 3 yo "),
        (.spanish, "media media vuelta medio 0.8rad 0.8.8rad 75-300mm-5 tengo 5 años "),
        (.french, "3 ans d' d' 2,4 milliards de de gallons mètres carrés carrés 0.8rad une une t t.métrique 5 mois d'âge 2 km "),
        (.dutch, "een een metrische metrische ton 6-jarige jarige leeftijd 3 jaar oud oud 2 MB mb km/u/u "),
        (.chinese, "一二三千千米米半半 时速时速5公里 七周周岁岁 - 90天大大 三千兆字节 "),
        (.chinese, "三十两两两 两万两 一两天 千卡卡 兆赫赫兹 5 -3米 29岁 "),
        (.japanese, "時速時速188マイル 毎秒毎秒 ２９歳歳 1万6千メートルトントン 10ヶ月ヶ月 "),
    ])
    func measuresAreReadInLinearTime(_ language: BuiltinLanguage, _ piece: String) {
        for type in [BuiltinEntityType.age, .dimension] {
            let recognizer = BuiltinRecognizer(language: language, types: [type])
            let small = String(repeating: piece, count: 100), large = String(repeating: piece, count: 1_000)
            #expect(!recognizer.entities(in: small).isEmpty)
            let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
            #expect(growth.ratio < linearWorkBound, "\(language.rawValue) \(type): 10x the text: \(growth)")
        }
    }
}
