/// Spanish money and temperature words (Recognizers-Text's Spanish CurrencyModel and TemperatureModel specs, read
/// for their meaning): "$ 75 millones", "48.000 millones de dólares", "C$ 16,4 millones", "U$D 90 millones", "15
/// dólares con 50", "3 euros con 99 céntimos", "40 grados Celsius", "37ºC"; units named as those specs name them
/// ("Dólar canadiense", "Libra", "Grado Celsius", "Grado").
enum SpanishUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dólar", prefix: true, bare: ["dólar", "dólares", "dolar", "dolares"], ["$", "dólar", "dólares", "dolar", "dolares"])
        units.currency("Dólar estadounidense", prefix: true, ["us $", "u $ d", "u $ s", "dólar estadounidense", "dólares estadounidenses"])
        units.currency("Dólar estadounidense", iso: "USD", prefix: true, ["usd", "usd $"])
        units.currency("Dólar canadiense", prefix: true, ["c $", "cad", "dólar canadiense", "dólares canadienses"])
        units.currency("Dólar canadiense", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Dólar australiano", prefix: true, ["aud", "dólar australiano", "dólares australianos"])
        units.currency("Dólar australiano", iso: "AUD", prefix: true, ["aud $"])
        units.currency("Dólar neozelandés", prefix: true, ["nz $", "nzd", "dólar neozelandés", "dólares neozelandeses"])
        units.currency("Dólar neozelandés", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Dólar de Hong Kong", prefix: true, ["hk $", "hkd", "dólar de hong kong", "dólares de hong kong"])
        units.currency("Peso mexicano", iso: "MXN", prefix: true, ["mxn $", "mxn"])
        units.currency("Peso mexicano", ["peso mexicano", "pesos mexicanos"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro", "euros"])
        units.currency("Libra", prefix: true, ["£", "libra", "libras", "libra esterlina", "libras esterlinas"])
        units.currency("Franco", ["franco", "francos"])
        units.currency("Franco suizo", prefix: true, ["chf", "franco suizo", "francos suizos"])
        units.currency("Yen", prefix: true, ["¥", "yen", "yenes", "jpy"])
        units.currency("Yuan chino", prefix: true, ["yuan", "yuanes", "cny", "rmb", "元", "yuan chino", "yuanes chinos"])
        units.currency("Marco finlandés", ["marco finlandés", "marcos finlandeses"])
        units.currency("Florín neerlandés", ["florín neerlandés", "florines neerlandeses", "florín holandés", "florines holandeses"])
        units.currency("Peseta", prefix: true, ["peseta", "pesetas", "pta", "ptas"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin", "bitcoins"])
        units.currency("Centavo", subunit: true, ["centavo", "centavos", "¢"])
        units.currency("Céntimo", subunit: true, ["céntimo", "céntimos"])
        units.currency("Penique", subunit: true, ["penique", "peniques"])
        units.unitConnectors = ["de"]
        units.hundredthsConnectors = ["y", "con"]
        units.degreeWords = ["grado", "grados", "°", "º"]
        units.degreeUnit = "Grado"
        units.scales = ["c": "Grado Celsius", "celsius": "Grado Celsius", "centigrado": "Grado Celsius", "centigrados": "Grado Celsius",
                        "f": "Grado Fahrenheit", "fahrenheit": "Grado Fahrenheit", "k": "Kelvin", "kelvin": "Kelvin", "kelvins": "Kelvin"]
        units.angleWords = ["angulo", "angulos", "girar", "gire", "gira", "rotar", "rotacion"]
        SpanishMeasureWords.add(to: &units)
        return units
    }()
}
