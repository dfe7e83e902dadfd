/// Italian money and temperature words (Recognizers-Text's Italian CurrencyModel and TemperatureModel specs, read
/// for their meaning): "$ 75 milioni", "420 milioni di marchi finlandesi", "c $ 16,4 milioni", "15 dollari e 15
/// centesimi", "dollari 996", "40 gradi celsius"; units named as those specs name them (English names: "Pound",
/// "Canadian dollar", "C", "Degree").
enum ItalianUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dollar", prefix: true, bare: ["dollaro", "dollari"], ["$", "dollaro", "dollari"])
        units.currency("United States dollar", prefix: true, ["us $", "usd", "dollaro americano", "dollari americani", "dollaro statunitense", "dollari statunitensi"])
        units.currency("United States dollar", iso: "USD", prefix: true, ["usd $"])
        units.currency("Canadian dollar", prefix: true, ["c $", "cad", "dollaro canadese", "dollari canadesi"])
        units.currency("Canadian dollar", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Australian dollar", prefix: true, ["aud", "dollaro australiano", "dollari australiani"])
        units.currency("Australian dollar", iso: "AUD", prefix: true, ["aud $"])
        units.currency("New Zealand dollar", prefix: true, ["nz $", "nzd", "dollaro neozelandese", "dollari neozelandesi"])
        units.currency("New Zealand dollar", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Hong Kong dollar", prefix: true, ["hk $", "hkd", "dollaro di hong kong", "dollari di hong kong"])
        units.currency("Mexican peso", iso: "MXN", prefix: true, ["mxn $"])
        units.currency("Mexican peso", prefix: true, ["mxn", "peso messicano", "pesos messicani"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro"])
        units.currency("Pound", prefix: true, ["£", "sterlina", "sterline", "lira sterlina", "lire sterline"])
        units.currency("Franc", ["franco", "franchi"])
        units.currency("Swiss franc", prefix: true, ["chf", "franco svizzero", "franchi svizzeri"])
        units.currency("Japanese yen", prefix: true, ["¥", "yen", "jpy"])
        units.currency("Chinese yuan", prefix: true, ["yuan", "cny", "rmb", "元", "renminbi"])
        units.currency("Finnish markka", ["marco finlandese", "marchi finlandesi"])
        units.currency("Netherlands guilder", ["fiorino olandese", "fiorini olandesi"])
        units.currency("Peseta", prefix: true, ["peseta", "pesetas"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin"])
        units.currency("Cent", subunit: true, ["centesimo", "centesimi", "cent", "¢"])
        units.currency("Pence", subunit: true, ["pence"])
        units.currency("Penny", subunit: true, ["penny"])
        units.unitConnectors = ["di", "d'", "d’"]
        units.elisions = ["d'", "d’"]
        units.hundredthsConnectors = ["e"]
        units.degreeWords = ["grado", "gradi", "°", "º"]
        units.degreeUnit = "Degree"
        units.scales = ["c": "C", "celsius": "C", "centigradi": "C", "centigrado": "C", "f": "F", "fahrenheit": "F",
                        "farenheit": "F", "k": "K", "kelvin": "K"]
        units.angleWords = ["angolo", "angoli", "ruota", "ruotare", "girare", "gira", "rotazione"]
        ItalianMeasureWords.add(to: &units)
        return units
    }()
}
