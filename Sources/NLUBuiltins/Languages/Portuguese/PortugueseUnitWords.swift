/// Portuguese money and temperature words (Recognizers-Text's Portuguese CurrencyModel and TemperatureModel specs,
/// read for their meaning): "$ 75 milhões", "um bilhão de dólares", "C$ 16,4 milhoes", "15 dólares com 50",
/// "duzentos BTC", "40 graus Celsius", "30º C"; units named as those specs name them ("Dólar canadense", "Pêni",
/// "Grau Celsius", "Grau").
enum PortugueseUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dólar", prefix: true, bare: ["dólar", "dólares"], ["$", "dólar", "dólares", "dolar", "dolares"])
        units.currency("Dólar estadunidense", prefix: true, ["us $", "dólar estadunidense", "dólares estadunidenses",
                                                             "dólar americano", "dólares americanos"])
        units.currency("Dólar estadunidense", iso: "USD", prefix: true, ["usd", "usd $"])
        units.currency("Dólar canadense", prefix: true, ["c $", "cad", "dólar canadense", "dólares canadenses"])
        units.currency("Dólar canadense", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Dólar australiano", prefix: true, ["aud", "dólar australiano", "dólares australianos"])
        units.currency("Dólar australiano", iso: "AUD", prefix: true, ["aud $"])
        units.currency("Dólar neozelandês", prefix: true, ["nz $", "nzd", "dólar neozelandês", "dólares neozelandeses"])
        units.currency("Dólar neozelandês", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Dólar de Hong Kong", prefix: true, ["hk $", "hkd", "dólar de hong kong", "dólares de hong kong"])
        units.currency("Peso mexicano", iso: "MXN", prefix: true, ["mxn $"])
        units.currency("Peso mexicano", prefix: true, ["mxn", "peso mexicano", "pesos mexicanos"])
        units.currency("Real", prefix: true, ["r $", "brl", "real", "reais"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro", "euros"])
        units.currency("Libra", prefix: true, ["£", "libra", "libras", "libra esterlina", "libras esterlinas"])
        units.currency("Franco", ["franco", "francos"])
        units.currency("Franco suíço", prefix: true, ["chf", "franco suíço", "francos suíços"])
        units.currency("Yen", prefix: true, ["¥", "yen", "yenes", "iene", "ienes", "jpy"])
        units.currency("Yuan chinês", prefix: true, ["yuan", "yuans", "cny", "rmb", "元", "yuan chinês", "yuans chineses"])
        units.currency("Marco finlandês", ["marco finlandês", "marcos finlandeses"])
        units.currency("Florim holandês", ["florim holandês", "florins holandeses"])
        units.currency("Peseta", prefix: true, ["peseta", "pesetas"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin", "bitcoins"])
        units.currency("Centavo", subunit: true, ["centavo", "centavos", "¢"])
        units.currency("Pêni", subunit: true, ["pêni", "pênis", "penies", "pence", "penny"])
        units.unitConnectors = ["de"]
        units.hundredthsConnectors = ["e", "com"]
        units.degreeWords = ["grau", "graus", "°", "º"]
        units.degreeUnit = "Grau"
        units.scales = ["c": "Grau Celsius", "celsius": "Grau Celsius", "centigrado": "Grau Celsius", "centigrados": "Grau Celsius",
                        "f": "Grau Fahrenheit", "fahrenheit": "Grau Fahrenheit", "k": "Kelvin", "kelvin": "Kelvin", "kelvins": "Kelvin"]
        units.angleWords = ["angulo", "angulos", "girar", "gire", "virar", "vire", "rotacao"]
        PortugueseMeasureWords.add(to: &units)
        return units
    }()
}
