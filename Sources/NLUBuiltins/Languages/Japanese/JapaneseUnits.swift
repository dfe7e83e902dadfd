/// Japanese money and temperature words, named as Recognizers-Text's Japanese specs name them.
enum JapaneseUnits {
    static let units: CJKUnits = {
        var units = CJKUnits(
            currencies: [
                CJKUnits.Currency("ニュー台湾ドル", "New Taiwan dollar", "TWD"), CJKUnits.Currency("台湾ドル", "New Taiwan dollar", "TWD"),
                CJKUnits.Currency("香港ドル", "Hong Kong dollar", "HKD"), CJKUnits.Currency("米ドル", "United States dollar", "USD"),
                CJKUnits.Currency("ドル", "United States dollar", "USD"), CJKUnits.Currency("スイス・フラン", "Swiss franc", "CHF"),
                CJKUnits.Currency("スイスフラン", "Swiss franc", "CHF"), CJKUnits.Currency("パナマ・バルボア", "Panamanian balboa", "PAB"),
                CJKUnits.Currency("ユーロ", "Euro", "EUR"), CJKUnits.Currency("ナイラ", "Nigerian naira", "NGN"),
                CJKUnits.Currency("ポンド", "British pound", "GBP"), CJKUnits.Currency("人民元", "Chinese yuan", "CNY"),
                CJKUnits.Currency("元", "Chinese yuan", "CNY"), CJKUnits.Currency("円", "Japanese yen", "JPY"),
            ],
            currencyPrefixes: [
                CJKUnits.Currency("us$", "United States dollar", "USD"), CJKUnits.Currency("$", "Dollar", nil),
                CJKUnits.Currency("￥", "Japanese yen", "JPY"), CJKUnits.Currency("¥", "Japanese yen", "JPY"),
                CJKUnits.Currency("\\", "Japanese yen", "JPY"), CJKUnits.Currency("€", "Euro", "EUR"), CJKUnits.Currency("£", "Pound", nil),
            ],
            leadingNames: [CJKUnits.Currency("人民元", "Chinese yuan", "CNY")],
            subunits: [
                CJKUnits.Subunit(word: CJKNumerals.word("セント"), perUnit: 100), CJKUnits.Subunit(word: CJKNumerals.word("銭"), perUnit: 100),
                CJKUnits.Subunit(word: CJKNumerals.word("角"), perUnit: 10), CJKUnits.Subunit(word: CJKNumerals.word("分"), perUnit: 100),
            ],
            subunitJoiners: CJKNumerals.words(["と"]),
            bareSubunitAfterJoiner: true,
            temperaturePrefixes: [(CJKNumerals.word("華氏温度"), "F"), (CJKNumerals.word("華氏"), "F"), (CJKNumerals.word("摂氏温度"), "C"),
                                  (CJKNumerals.word("摂氏"), "C")],
            temperatureJoiners: CJKNumerals.words(["の"]),
            temperatureSuffixes: [(CJKNumerals.word("°C"), "C"), (CJKNumerals.word("℃"), "C"), (CJKNumerals.word("°F"), "F"),
                                  (CJKNumerals.word("℉"), "F"), (CJKNumerals.word("度"), "Degree")],
            temperatureNames: [(CJKNumerals.word("華氏温度"), "F"), (CJKNumerals.word("摂氏温度"), "C"), (CJKNumerals.word("華氏"), "F"),
                               (CJKNumerals.word("摂氏"), "C"), (CJKNumerals.word("℃"), "C"), (CJKNumerals.word("°C"), "C"),
                               (CJKNumerals.word("°F"), "F"), (CJKNumerals.word("℉"), "F")])
        JapaneseMeasureWords.add(to: &units)
        return units
    }()
}
