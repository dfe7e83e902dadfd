/// Chinese money and temperature words, named as Recognizers-Text's Chinese specs name them.
enum ChineseUnits {
    static let units: CJKUnits = {
        var units = CJKUnits(
            currencies: [
                CJKUnits.Currency("元人民币", "Chinese yuan", "CNY"), CJKUnits.Currency("人民币", "Chinese yuan", "CNY"),
                CJKUnits.Currency("瑞士法郎", "Swiss franc", "CHF"), CJKUnits.Currency("比特币", "Bitcoin", nil),
                CJKUnits.Currency("美元", "United States dollar", "USD"), CJKUnits.Currency("美圆", "United States dollar", "USD"),
                CJKUnits.Currency("美金", "United States dollar", "USD"), CJKUnits.Currency("美刀", "United States dollar", "USD"),
                CJKUnits.Currency("欧元", "Euro", "EUR"), CJKUnits.Currency("歐元", "Euro", "EUR"),
                CJKUnits.Currency("日元", "Japanese yen", "JPY"), CJKUnits.Currency("日圆", "Japanese yen", "JPY"),
                CJKUnits.Currency("港元", "Hong Kong dollar", "HKD"), CJKUnits.Currency("港币", "Hong Kong dollar", "HKD"),
                CJKUnits.Currency("台币", "New Taiwan dollar", "TWD"), CJKUnits.Currency("新台币", "New Taiwan dollar", "TWD"),
                CJKUnits.Currency("英镑", "British pound", "GBP"), CJKUnits.Currency("卢布", "Russian ruble", "RUB"),
                CJKUnits.Currency("韩元", "South Korean won", "KRW"), CJKUnits.Currency("奈拉", "Nigerian naira", "NGN"),
                CJKUnits.Currency("元", "Chinese yuan", "CNY"), CJKUnits.Currency("圆", "Chinese yuan", "CNY"),
                CJKUnits.Currency("块", "Chinese yuan", "CNY"), CJKUnits.Currency("塊", "Chinese yuan", "CNY"),
            ],
            currencyPrefixes: [
                CJKUnits.Currency("US$", "United States dollar", "USD"), CJKUnits.Currency("$", "Dollar", nil),
                CJKUnits.Currency("￥", "Chinese yuan", "CNY"), CJKUnits.Currency("¥", "Chinese yuan", "CNY"),
                CJKUnits.Currency("€", "Euro", "EUR"), CJKUnits.Currency("£", "Pound", nil),
            ],
            leadingNames: [CJKUnits.Currency("人民币", "Chinese yuan", "CNY")],
            counters: CJKNumerals.words(["个", "個"]),
            subunits: [
                CJKUnits.Subunit(word: CJKNumerals.word("美分"), perUnit: 100), CJKUnits.Subunit(word: CJKNumerals.word("日本銭"), perUnit: 100),
                CJKUnits.Subunit(word: CJKNumerals.word("角"), perUnit: 10), CJKUnits.Subunit(word: CJKNumerals.word("毛"), perUnit: 10),
                CJKUnits.Subunit(word: CJKNumerals.word("分"), perUnit: 100),
            ],
            subunitJoiners: CJKNumerals.words(["又"]),
            temperaturePrefixes: [(CJKNumerals.word("华氏温度"), "F"), (CJKNumerals.word("華氏溫度"), "F"), (CJKNumerals.word("华氏"), "F"),
                                  (CJKNumerals.word("華氏"), "F"), (CJKNumerals.word("摄氏温度"), "C"), (CJKNumerals.word("攝氏溫度"), "C"),
                                  (CJKNumerals.word("摄氏"), "C"), (CJKNumerals.word("攝氏"), "C")],
            temperatureSuffixes: [(CJKNumerals.word("摄氏度"), "C"), (CJKNumerals.word("攝氏度"), "C"), (CJKNumerals.word("华氏度"), "F"),
                                  (CJKNumerals.word("華氏度"), "F"), (CJKNumerals.word("°C"), "C"), (CJKNumerals.word("℃"), "C"),
                                  (CJKNumerals.word("°F"), "F"), (CJKNumerals.word("℉"), "F"), (CJKNumerals.word("度"), "Degree")],
            temperatureNames: [(CJKNumerals.word("摄氏度"), "C"), (CJKNumerals.word("攝氏度"), "C"), (CJKNumerals.word("华氏度"), "F"),
                               (CJKNumerals.word("华氏温度"), "F"), (CJKNumerals.word("摄氏温度"), "C"), (CJKNumerals.word("°C"), "C"),
                               (CJKNumerals.word("℃"), "C"), (CJKNumerals.word("°F"), "F"), (CJKNumerals.word("℉"), "F")])
        ChineseMeasureWords.add(to: &units)
        return units
    }()
}
