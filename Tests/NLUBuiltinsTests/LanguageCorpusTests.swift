import Foundation
import NLUBuiltins
import NLUTestSupport
import Testing

/// Recognizers-Text's number, ordinal, percentage, currency, temperature, phone-number and URL specs of the other
/// languages (MIT; phone numbers and URLs where a language has a spec of its own), converted by
/// scripts/fixtures/builtins_recognizers_text.py into recognizers-text/<code>/: the share of cases passed per
/// language and kind, with floors at the level measured when they were set, so that a regression fails.
/// docs/builtins.md reports the same figures beside the Python port's.
@Suite struct LanguageCorpusTests {
    /// (language, fixture, minimum share of cases passed).
    static let floors: [(BuiltinLanguage, String, Double)] = [
        // French numbers: 144 of the 273 cases are marked unsupported by every implementation in the spec, and about
        // 60 of those want a decimal point ("0.08") where the supported ones want the comma ("0,08"): no reader
        // passes both (docs/builtins.md).
        (.french, "number", 0.66), (.french, "ordinal", 0.91), (.french, "percentage", 0.94),
        (.spanish, "number", 0.96), (.spanish, "ordinal", 0.93), (.spanish, "percentage", 1.0),
        (.german, "number", 0.98), (.german, "ordinal", 0.97), (.german, "percentage", 1.0),
        (.portuguese, "number", 0.98), (.portuguese, "ordinal", 1.0), (.portuguese, "percentage", 1.0),
        (.italian, "number", 0.96), (.italian, "ordinal", 0.90), (.italian, "percentage", 1.0),
        (.dutch, "number", 0.92), (.dutch, "ordinal", 1.0), (.dutch, "percentage", 1.0),
        // Money and temperatures: value, unit (the language's name for it) and ISO code all as the spec says.
        (.french, "currency", 0.99), (.french, "temperature", 1.0),
        (.spanish, "currency", 0.99), (.spanish, "temperature", 1.0),
        (.german, "currency", 1.0), (.german, "temperature", 1.0),
        (.portuguese, "currency", 0.99), (.portuguese, "temperature", 1.0),
        (.italian, "currency", 1.0), (.italian, "temperature", 0.91),
        (.dutch, "currency", 0.87), (.dutch, "temperature", 1.0),
        // Chinese and Japanese, read on characters (CJKNumberRecognizer). The Japanese specs mark most of their
        // percentage cases and 288 of their number cases unsupported by every implementation, some with values that
        // contradict the supported ones ("8割引" 20 % where "5割引" is 50 %): docs/builtins.md.
        (.chinese, "number", 0.99), (.chinese, "ordinal", 1.0), (.chinese, "percentage", 0.98),
        (.japanese, "number", 0.89), (.japanese, "ordinal", 0.99), (.japanese, "percentage", 0.88),
        // Money named without an amount ("人民币", "ドル") is a unit with its ISO code and no value, which
        // BuiltinResolution cannot say yet: those cases fail.
        (.chinese, "currency", 0.91), (.chinese, "temperature", 1.0), (.japanese, "currency", 0.92), (.japanese, "temperature", 1.0),
        // Ages and dimensions: value and unit (the language's name for it) as the spec says.
        // The misses left are the spec's own quirks: a bare "m" (French), "12 - Pfund - Tasse" (German), ",25ml" (Portuguese).
        (.french, "age", 1.0), (.french, "dimension", 0.98), (.spanish, "age", 1.0), (.spanish, "dimension", 1.0),
        (.german, "age", 1.0), (.german, "dimension", 0.96), (.portuguese, "age", 1.0), (.portuguese, "dimension", 0.98),
        (.italian, "age", 1.0), (.italian, "dimension", 1.0), (.dutch, "age", 1.0), (.dutch, "dimension", 1.0),
        // Chinese and Japanese: the Japanese age spec marks 10 of its 18 cases unsupported by every implementation. The
        // misses left: Chinese "一位" as a bit (where "一位名叫杰克的男生" is nothing); Japanese "メガバイト" as a megabit (the
        // .NET table lists it under Megabit), "2pm" as picometers and "二十万キロ" as kilograms where "325キロ" is kilometers.
        (.chinese, "age", 1.0), (.chinese, "dimension", 0.97), (.japanese, "age", 0.77), (.japanese, "dimension", 0.93),
        // Phone numbers and URLs, where the language has a spec of its own: most cases are Chinese (330 of its 391 phone
        // cases are the English spec's behind "我的电话号是") and Portuguese; the others have one case each.
        (.french, "phonenumber", 1.0), (.spanish, "phonenumber", 1.0), (.german, "phonenumber", 1.0),
        (.portuguese, "phonenumber", 1.0), (.italian, "phonenumber", 1.0), (.dutch, "phonenumber", 1.0),
        (.chinese, "phonenumber", 0.96), (.japanese, "phonenumber", 1.0), (.chinese, "url", 0.97), (.japanese, "url", 1.0),
    ]

    @Test(arguments: floors.map { "\($0.0.rawValue)/\($0.1)" })
    func shareOfCasesPassedStaysAtItsFloor(_ name: String) throws {
        let (language, kind, floor) = try #require(Self.floors.first { "\($0.0.rawValue)/\($0.1)" == name })
        let type = try #require(BuiltinEntityType(rawValue: kind))
        let score = try scoreCorpus(name, types: [type], language: language)
        dumpFailures(score, name: name.replacingOccurrences(of: "/", with: "-"))
        try dumpPassedCases(score, name: name.replacingOccurrences(of: "/", with: "-"))
        print("recognizers-text \(name): \(score)")
        #expect(score.overallShare >= floor, "\(name): \(score)")
    }

    /// French numbers measured on the cases the spec's reference implementation (.NET) supports: 127 of 129, where the
    /// whole share (66.3 %) counts the 144 cases the spec marks unsupported by every implementation (fixtures keep the
    /// spec's "NotSupported" list; docs/builtins.md gives the ceiling argument).
    @Test func frenchNumbersPassTheCasesDotNetSupports() throws {
        let score = try scoreCorpus("fr/number", types: [.number], language: .french)
        #expect(score.supportedTotal == 129)
        #expect(score.supportedShare >= 0.98, "fr/number: \(score)")
    }

    /// Every spec case listed as passed when the list was made (recognizers-text/<code>/<kind>-passing.json, written by
    /// the test above with NLUKIT_CORPUS_PASSING set, then moved beside the spec) still passes: a regression in one
    /// reading fails here by name, where the share could hide it behind a gain elsewhere.
    @Test(arguments: floors.map { "\($0.0.rawValue)/\($0.1)" })
    func specCasesOnceReadStillRead(_ name: String) throws {
        let (language, kind, _) = try #require(Self.floors.first { "\($0.0.rawValue)/\($0.1)" == name })
        let type = try #require(BuiltinEntityType(rawValue: kind))
        let listed = try JSONDecoder().decode([[String]].self, from: Data(contentsOf: builtinsFixtures.appendingPathComponent(
            "recognizers-text/\(name)-passing.json")))
        let passed = Set(try scoreCorpus(name, types: [type], language: language).passedCases)
        #expect(!listed.isEmpty)
        for item in listed where !passed.contains(item) {
            Issue.record("\(name): no longer read as the spec reads it: \(item)")
        }
    }

    /// Representative readings, worked by hand: compounds, "quatre-vingt", decimal comma and thousands dots,
    /// ordinal digits, fractions.
    @Test(arguments: [
        (BuiltinLanguage.french, "quatre-vingt-dix-sept pour cent, le 1er et vingt et un",
         ["percentage quatre-vingt-dix-sept pour cent 97", "ordinal 1er 1", "number vingt et un 21"]),
        (.german, "dreihundertvierundzwanzig Gäste, die 3. Banane, 2.000,352",
         ["number dreihundertvierundzwanzig 324", "ordinal 3. 3", "number 2.000,352 2000,352"]),
        (.spanish, "doscientos treinta y uno, tres cuartos", ["number doscientos treinta y uno 231", "number tres cuartos 0,75"]),
        (.italian, "centoventicinquesimo", ["ordinal centoventicinquesimo 125"]),
        (.dutch, "eenentwintig procent", ["percentage eenentwintig procent 21"]),
        (.portuguese, "cento e dezesseis", ["number cento e dezesseis 116"]),
    ])
    func readsRepresentativeCases(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text) == expected)
    }

    /// Ordinals relative to the end or the current item, worked by hand from the specs' phrases: an elided article
    /// left out ("l’antépénultième") or kept where the phrase holds it ("l'ultima"), phrases of several words.
    @Test(arguments: [
        (BuiltinLanguage.french, "Montrez-moi l’antépénultième, le dernier et celle d’avant la dernière",
         ["ordinal antépénultième end-2", "ordinal dernier end+0", "ordinal celle d’avant la dernière end-1"]),
        (.spanish, "el penúltimo y los próximos 3", ["ordinal penúltimo end-1", "ordinal próximos current+1"]),
        (.german, "das vorletzte und die nächsten", ["ordinal vorletzte end-1", "ordinal nächsten current+1"]),
        (.portuguese, "o último mas um", ["ordinal último mas um end-1"]),
        (.italian, "l'ultima e il terzultimo", ["ordinal l'ultima end+0", "ordinal terzultimo end-2"]),
        (.dutch, "de op één na laatste, de vorige", ["ordinal de op één na laatste end-1", "ordinal vorige current-1"]),
    ])
    func readsRelativeOrdinals(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text, types: [.ordinal]) == expected)
    }

    /// Fractions worked by hand: of a scale said before or after them, a numerator joined by the connector (Spanish),
    /// a denominator said as a cardinal and "avos" (Portuguese), a ratio with its article and the article "een"
    /// (Dutch), half a dozen, half a million.
    @Test(arguments: [
        (BuiltinLanguage.french, "cinq milliards et trois quarts", ["number cinq milliards et trois quarts 5750000000"]),
        (.spanish, "un billón y medio millón", ["number un billón y medio millón 1000000500000"]),
        (.spanish, "ciento treinta y dos quintos", ["number ciento treinta y dos quintos 26,4"]),
        (.german, "eine halbe Million", ["number eine halbe Million 500000"]),
        (.dutch, "een op de twintig, min een, anderhalf", ["number een op de twintig 0,05", "number min een -1", "number anderhalf 1,5"]),
        (.portuguese, "um vinte e um avos, meia dúzia", ["number um vinte e um avos 0,0476190476190476", "number meia dúzia 6"]),
        (.italian, "mezzo milione", ["number mezzo milione 500000"]),
    ])
    func readsFractions(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text, types: [.number]) == expected)
    }

    /// Adversarial pieces in every language with number words: ratios, relative ordinals, fractions and denominators
    /// said in two words, compounds written as one word (German, Italian), joiners ("et", "y", "und", "e"), dates,
    /// runs of numerals, units, separators and joiners without spaces, each a look-ahead that could go on; ten times
    /// the text is about ten times the work.
    @Test(arguments: [
        (BuiltinLanguage.french, "quatre-vingt-dix-sept mille cent et un virgule cinq pour cent 1 234,5 1er 3e trente et un deuxième avant-dernier cinq milliards et trois quarts "),
        (.spanish, "ciento treinta y dos quintos un billón y medio millón 1.234,5 por ciento 2º vigésimo primero penúltimo dos coma cinco y y "),
        (.german, "dreihundertfünfundzwanzigtausendeins eine halbe Million 1.234,5 Prozent 3. zweiundzwanzigste vorletzte drei Komma vier und und "),
        (.italian, "centoventitremilaquattrocento mezzo milione 1.234,5 per cento 2º ventiduesimo penultimo tre virgola cinque e e "),
        (.dutch, "een op de twintig, de op één na laatste drieëntwintig vijfde 1.5 17/5/2018 anderhalf miljoen "),
        (.portuguese, "cento e trinta e tres vinte e um avos tres dois milesimos meia dúzia o último mas um 5.00 "),
        (.chinese, "一二三四五六七八九〇万万亿分之又百分之 1,234,567.8 第二十万零三 九九折 三成半 "),
        (.japanese, "一二三四五六七八九〇万億分の と 最後から一つ前 3割8分7厘 ２０パ ーセ ント "),
    ])
    func numbersAndRelativeOrdinalsAreReadInLinearTime(_ language: BuiltinLanguage, _ piece: String) {
        let recognizer = BuiltinRecognizer(language: language, types: [.number, .ordinal, .percentage])
        #expect(!recognizer.entities(in: piece).isEmpty, "the piece reads as numbers")
        let small = String(repeating: piece, count: 100), large = String(repeating: piece, count: 1_000)
        let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
        #expect(growth.ratio < linearWorkBound, "\(language.rawValue): 10x the text: \(growth)")
    }

    /// Money and temperatures worked by hand: the unit before or after, scales after a decimal, an elided "d'",
    /// hundredths in words, a subunit the number words also use ("cents" is hundreds in French), degrees and scales.
    @Test(arguments: [
        (BuiltinLanguage.french, "323 millions d'euros et 48,2 millions de $ c",
         ["currency 323 millions d'euros 323000000 Euro", "currency 48,2 millions de $ c 48200000 Dollar Canadien"]),
        (.french, "treize euros et quarante-cinq cents, 50 cents", ["currency treize euros et quarante-cinq cents 13,45 Euro", "currency 50 cents 50 Cent"]),
        (.spanish, "US$ 1,17 mil millones, 3 euros con 99 céntimos",
         ["currency US$ 1,17 mil millones 1170000000 Dólar estadounidense", "currency 3 euros con 99 céntimos 3,99 Euro"]),
        (.german, "zwei Euro und fünfzig Cent, 2,5 Mio USD", ["currency zwei Euro und fünfzig Cent 2,5 Euro", "currency 2,5 Mio USD 2500000 United States dollar"]),
        (.dutch, "vijf euro vijftig, een kwartje", ["currency vijf euro vijftig 5,5 Euro", "currency een kwartje 1 Kwartje"]),
        // "nog een" is "another": the coin alone is the amount.
        (.dutch, "hij is me nog een tientje schuldig", ["currency tientje 1 Tientje"]),
        (.french, "323 millions d'euros et 30 degrés celsius",
         ["currency 323 millions d'euros 323000000 Euro", "temperature 30 degrés celsius 30 C"]),
        (.french, "-5 degrés fahrenheit, 98 degrés, un angle de 45 degrés",
         ["temperature -5 degrés fahrenheit -5 F", "temperature 98 degrés 98 Degré"]),
        (.spanish, "36,6ºC y 40 grados centígrados", ["temperature 36,6ºC 36,6 Grado Celsius", "temperature 40 grados centígrados 40 Grado Celsius"]),
        (.german, "fünfunddreißig °C", ["temperature fünfunddreißig °C 35 C"]),
        (.portuguese, "duzentos BTC a 30º C", ["currency duzentos BTC 200 Bitcoin", "temperature 30º C 30 Grau Celsius"]),
    ])
    func readsRepresentativeMoneyAndTemperatures(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        #expect(readings(language, text, types: [.currency, .temperature]) == expected)
    }

    /// Adversarial money and temperatures in every language: amounts in words and digits before and after their
    /// unit, subunits joined by a connector, currency signs and degree signs with nothing after them, scales after a
    /// decimal, units alone; each a look-ahead that could go on. Ten times the text is about ten times the work.
    @Test(arguments: [
        (BuiltinLanguage.english, "$ $ 1,2,3 dollars and forty-five cents us$ 1.5 million euros 30 degrees fahrenheit twenty-two degrees celsius ° c -5 °f "),
        (.french, "323 millions d'euros et 48,2 millions de $ c treize euros et quarante-cinq cents 30 degrés celsius ° f $ $ -5 °c "),
        (.spanish, "US$ 1,17 mil millones, 3 euros con 99 céntimos 40 grados centígrados 36,6ºC $ $ dólares y y "),
        (.german, "zwei Euro und fünfzig Cent, 2,5 Mio USD fünfunddreißig °C 30 Grad Celsius € € und und "),
        (.portuguese, "duzentos BTC a 30º C R$ 1,5 milhão de reais e 30 centavos 40 graus Celsius $ $ e e "),
        (.italian, "323 milioni di euro e 45 centesimi 30 gradi centigradi ° f € € di di "),
        (.dutch, "vijf euro vijftig, een kwartje 3 miljoen euro en 45 cent 30 graden Celsius ° f € € en en "),
        (.chinese, "1万亿日元3美元5角20摄氏度华氏98.6度零下五度人民币一百五十元三角美元美元"),
        (.japanese, "1万億円3ドル50セント摂氏20度華氏98.6度マイナス5度ドルドル円円"),
    ])
    func moneyAndTemperaturesAreReadInLinearTime(_ language: BuiltinLanguage, _ piece: String) {
        let recognizer = BuiltinRecognizer(language: language, types: [.currency, .temperature])
        #expect(Set(recognizer.entities(in: piece).map(\.type)) == [.currency, .temperature], "the piece reads both kinds")
        let small = String(repeating: piece, count: 100), large = String(repeating: piece, count: 1_000)
        let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
        #expect(growth.ratio < linearWorkBound, "\(language.rawValue): 10x the text: \(growth)")
    }

    /// Phone numbers and URLs worked by hand: inside unspaced Chinese and Japanese text, two numbers in a row, a domain
    /// ending at the first Chinese letter (and none made of them), a slash after an area code, an account number that
    /// no word calls a phone number.
    @Test(arguments: [
        (BuiltinLanguage.chinese, "宝爵台球会所：13604779660 13604770960或021-68812753,021-68808888",
         ["phonenumber 13604779660", "phonenumber 13604770960", "phonenumber 021-68812753", "phonenumber 021-68808888"]),
        (.chinese, "服务电话：7629236抢修", ["phonenumber 7629236"]),
        (.chinese, "微软的官网是microsoft.com哦，请访问https://luis.ai?action=add以获取更多信息。",
         ["url microsoft.com", "url https://luis.ai?action=add"]),
        (.chinese, "百度.com 是不合法地址", []),
        (.japanese, "私の電話番号は(+31)12-3456789です.", ["phonenumber (+31)12-3456789"]),
        (.portuguese, "Meu telefone é 0176/12345678, a conta número: 12345678", ["phonenumber 0176/12345678"]),
        (.english, "call 837.824.1482X63888, not 16-04-2010 nor #20020211895", ["phonenumber 837.824.1482X63888"]),
    ])
    func readsPhoneNumbersAndURLs(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        let found = BuiltinRecognizer(language: language, types: [.phonenumber, .url]).entities(in: text)
        #expect(found.map { "\($0.type.rawValue) \($0.text)" } == expected)
    }

    private func readings(_ language: BuiltinLanguage, _ text: String,
                          types: Set<BuiltinEntityType> = Set(BuiltinEntityType.allCases)) -> [String] {
        BuiltinRecognizer(language: language, types: types).entities(in: text).map { entity -> String in
            guard case .value(let value, let unit, _) = entity.resolution else { return "\(entity.type.rawValue) \(entity.text)" }
            return "\(entity.type.rawValue) \(entity.text) \(value)" + (unit.map { " \($0)" } ?? "")
        }
    }


    @Test func languageCodesAndCulturesAreParsed() throws {
        #expect(try BuiltinLanguage(code: "fr") == .french)
        #expect(try BuiltinLanguage(code: "fr-FR") == .french)
        #expect(try BuiltinLanguage(code: "de_de") == .german)
        #expect(try BuiltinLanguage(code: "PT-br") == .portuguese)
        #expect(try BuiltinLanguage(code: "zh-cn") == .chinese)
        #expect(try BuiltinLanguage(code: "ja-JP") == .japanese)
        #expect(throws: BuiltinLanguageError.unsupported("ko-kr")) { try BuiltinLanguage(code: "ko-kr") }
        #expect(throws: BuiltinLanguageError.malformed("f")) { try BuiltinLanguage(code: "f") }
        #expect(throws: BuiltinLanguageError.malformed("fr--FR")) { try BuiltinLanguage(code: "fr--FR") }
        #expect(BuiltinLanguageError.unsupported("ko").description.contains("supported: en, fr, es, de, pt, it, nl, zh, ja"))
    }

    /// A recognizer without a language reports only the kinds written alike in every language.
    @Test func noLanguageReportsOnlyLanguageIndependentKinds() {
        let recognizer = BuiltinRecognizer(language: nil, types: [.number, .currency, .datetime])
        #expect(recognizer.types == [.number])
    }
}
