/// French money and temperature words (Recognizers-Text's French CurrencyModel and TemperatureModel specs, read
/// for their meaning): "75 millions de dollars", "16,4 millions de $ c", "323 millions d'euros", "197 centimes",
/// "30 degrés celsius", "98 degrés"; units named as those specs name them ("Livre", "Dollar Canadien", "C", "Degré").
enum FrenchUnitWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        units.currency("Dollar", prefix: true, bare: ["dollar", "dollars"], ["$", "dollar", "dollars"])
        units.currency("Dollar États-Unis", prefix: true, ["$ usd", "us $", "usd", "dollar américain", "dollars américains",
                                                          "dollar des états-unis", "dollars des états-unis"])
        units.currency("Dollar États-Unis", iso: "USD", prefix: true, ["usd $"])
        units.currency("Dollar Canadien", prefix: true, ["$ c", "$ ca", "$cad", "$ can", "c $", "cad", "dollar canadien", "dollars canadiens"])
        units.currency("Dollar Canadien", iso: "CAD", prefix: true, ["cad $"])
        units.currency("Dollar Australien", prefix: true, ["aud", "dollar australien", "dollars australiens"])
        units.currency("Dollar Australien", iso: "AUD", prefix: true, ["aud $"])
        units.currency("Dollar néo-zélandais", prefix: true, ["nz $", "nzd", "dollar néo-zélandais", "dollars néo-zélandais"])
        units.currency("Dollar néo-zélandais", iso: "NZD", prefix: true, ["nzd $"])
        units.currency("Dollar de Hong Kong", prefix: true, ["$ hk", "hk $", "hkd", "dollar de hong kong", "dollars de hong kong"])
        units.currency("Mexican peso", iso: "MXN", prefix: true, ["mxn $"])
        units.currency("Mexican peso", prefix: true, ["mxn", "peso mexicain", "pesos mexicains"])
        units.currency("Euro", prefix: true, ["€", "eur", "euro", "euros"])
        units.currency("Livre", prefix: true, ["£", "livre", "livres", "livre sterling", "livres sterling"])
        units.currency("Franc", ["franc", "francs"])
        units.currency("Franc Suisse", prefix: true, ["chf", "franc suisse", "francs suisses"])
        units.currency("Yen Japonais", prefix: true, ["¥", "yen", "yens", "jpy", "yen japonais", "yens japonais"])
        units.currency("Yuan Chinois", prefix: true, ["yuan", "yuans", "cny", "rmb", "元", "yuan chinois", "yuans chinois"])
        units.currency("Roupie", ["roupie", "roupies"])
        units.currency("Roupie indienne", prefix: true, ["₹", "inr", "roupie indienne", "roupies indiennes"])
        units.currency("Mark Finlandais", ["mark finlandais", "marks finlandais"])
        units.currency("Florins Néerlandais", ["florin néerlandais", "florins néerlandais", "florin hollandais", "florins hollandais"])
        units.currency("Pesewa", ["pesewa", "pesewas"])
        units.currency("Bitcoin", prefix: true, ["₿", "btc", "bitcoin", "bitcoins"])
        units.currency("Cent", subunit: true, ["cent", "cents", "¢"])
        units.currency("Centimes", subunit: true, ["centime", "centimes"])
        units.currency("Pence", subunit: true, ["pence"])
        units.currency("Penny", subunit: true, ["penny", "pennies"])
        units.unitConnectors = ["de", "d'", "d’"]
        units.elisions = ["d'", "d’"]
        units.hundredthsConnectors = ["et"]
        units.degreeWords = ["degre", "degres", "deg", "°", "º"]
        units.degreeUnit = "Degré"
        units.scales = ["c": "C", "celsius": "C", "centigrade": "C", "centigrades": "C", "f": "F", "fahrenheit": "F",
                        "k": "Kelvin", "kelvin": "Kelvin", "kelvins": "Kelvin"]
        units.angleWords = ["angle", "angles", "rotation", "tourner", "tournez", "pivoter"]
        FrenchMeasureWords.add(to: &units)
        return units
    }()
}
