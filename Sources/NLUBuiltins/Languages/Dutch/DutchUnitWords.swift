/// Dutch money and temperature words (Recognizers-Text's Dutch CurrencyModel and TemperatureModel specs, read for
/// their meaning): "35,9 miljoen dollar", "vijf euro vijftig", "3 euro en 50 cent", "2 miljard amerikaanse dollar",
/// "een kwartje", "40 graden Celsius", "6 gr. C"; units named as those specs name them (English names:
/// "United States dollar", "C", "Degree"; the old coins by their Dutch names).
enum DutchUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dollar", prefix: true, ["$", "dollar", "dollars"])
        units.currency("United States dollar", prefix: true, ["us $", "usd", "amerikaanse dollar", "amerikaanse dollars"])
        units.currency("United States dollar", iso: "USD", prefix: true, ["usd $"])
        units.currency("Canadian dollar", prefix: true, ["c $", "cad", "canadese dollar", "canadese dollars"])
        units.currency("Canadian dollar", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Australian dollar", prefix: true, ["a $", "aud", "australische dollar", "australische dollars"])
        units.currency("Australian dollar", iso: "AUD", prefix: true, ["aud $"])
        units.currency("New Zealand dollar", prefix: true, ["nz $", "nzd", "nieuw-zeelandse dollar"])
        units.currency("New Zealand dollar", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Mexican peso", iso: "MXN", prefix: true, ["mxn $"])
        units.currency("Mexican peso", prefix: true, ["mxn", "mexicaanse peso", "mexicaanse pesos"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro", "euro's"])
        units.currency("Pound", prefix: true, ["£", "pond", "ponden"])
        units.currency("Japanese yen", prefix: true, ["¥", "yen", "jpy"])
        units.currency("Chinese yuan", iso: "CNY", prefix: true, ["元"])
        units.currency("Chinese yuan", prefix: true, ["yuan", "cny", "rmb", "renminbi"])
        units.currency("Netherlands guilder", prefix: true, ["ƒ", "gulden", "guldens", "nlg"])
        units.currency("Finnish markka", bare: ["markka"], ["markka", "markkaa", "finse mark"])
        units.currency("Penni", subunit: true, ["penni", "pennia"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin", "bitcoins"])
        units.currency("Cent", subunit: true, ["cent", "cents", "¢"])
        units.currency("Tientje", impliedOne: true, ["tientje"])
        units.currency("Kwartje", impliedOne: true, ["kwartje"])
        units.currency("Dubbeltje", impliedOne: true, ["dubbeltje"])
        units.currency("Stuiver", impliedOne: true, ["stuiver"])
        units.hundredthsConnectors = ["en"]
        units.anotherWords = ["nog"]
        units.degreeWords = ["graad", "graden", "gr", "°", "º"]
        units.degreeUnit = "Degree"
        units.scales = ["c": "C", "celsius": "C", "f": "F", "fahrenheit": "F", "k": "K", "kelvin": "K"]
        units.angleWords = ["hoek", "hoeken", "draai", "draaien", "draait", "roteren"]
        DutchMeasureWords.add(to: &units)
        return units
    }()
}
