/// German money and temperature words (Recognizers-Text's German CurrencyModel and TemperatureModel specs, read
/// for their meaning): "75 Millionen Dollar", "16,4 Millionen kanadischen Dollar", "2,5 Mio USD", "zwei Euro und
/// fünfzig Cent", "siebenhundert-Euro", "6 Grad Celsius", "fünfunddreißig °C"; units named as those specs name
/// them (English names: "Canadian dollar", "C", "Degree").
enum GermanUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dollar", prefix: true, bare: ["dollar"], ["$", "dollar", "dollars"])
        units.currency("United States dollar", prefix: true, ["us $", "usd", "us-dollar", "amerikanische dollar", "amerikanischen dollar"])
        units.currency("United States dollar", iso: "USD", prefix: true, ["usd $"])
        units.currency("Canadian dollar", prefix: true, ["c $", "cad", "kanadische dollar", "kanadischen dollar", "kanadischer dollar"])
        units.currency("Canadian dollar", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Australian dollar", prefix: true, ["a $", "aud", "australische dollar", "australischen dollar"])
        units.currency("Australian dollar", iso: "AUD", prefix: true, ["aud $"])
        units.currency("New Zealand dollar", prefix: true, ["nz $", "nzd", "neuseeland-dollar", "neuseeländische dollar"])
        units.currency("New Zealand dollar", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Mexican peso", iso: "MXN", prefix: true, ["mxn $"])
        units.currency("Mexican peso", prefix: true, ["mxn", "mexikanische peso", "mexikanischer peso"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro", "euros"])
        units.currency("Pound", prefix: true, ["£", "pfund"])
        units.currency("British pound", prefix: true, ["gbp", "britische pfund", "britisches pfund", "pfund sterling"])
        units.currency("Swiss franc", prefix: true, ["chf", "franken", "schweizer franken"])
        units.currency("Japanese yen", prefix: true, ["¥", "yen", "jpy", "japanische yen"])
        units.currency("Chinese yuan", prefix: true, ["yuan", "cny", "rmb", "元", "renminbi"])
        units.currency("Rupee", ["rupie", "rupien"])
        units.currency("Indian rupee", prefix: true, ["₹", "inr", "indische rupie", "indische rupien", "indischen rupien"])
        units.currency("Cambodian riel", ["riel", "kambodschanische riel", "kambodschanischer riel"])
        units.currency("Finnish markka", ["finnische mark", "finnmark"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin", "bitcoins"])
        units.currency("Cent", subunit: true, ["cent", "cents", "¢"])
        units.currency("Pence", subunit: true, ["pence", "penny"])
        units.hundredthsConnectors = ["und"]
        units.scaleAbbreviations = ["mio": 1_000_000, "mrd": 1_000_000_000]
        units.degreeWords = ["grad", "°", "º"]
        units.degreeUnit = "Degree"
        units.scales = ["c": "C", "celsius": "C", "f": "F", "fahrenheit": "F", "k": "K", "kelvin": "K"]
        units.angleWords = ["winkel", "drehen", "dreht", "drehung", "rotieren", "abbiegen"]
        GermanMeasureWords.add(to: &units)
        return units
    }()
}
