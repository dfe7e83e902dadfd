/// Currency names, symbols and ISO codes, as token phrases (lowercased tokens joined by one space),
/// with the unit name and ISO 4217 code Recognizers-Text reports for them.
enum CurrencyUnits {
    struct Unit: Sendable {
        var name: String
        var iso: String?
        /// Written before the amount ("$5", "USD 5") as well as after it.
        var prefix: Bool
        /// The unit's hundredth ("dollars and 45 cents").
        var hasCents: Bool = false
    }

    static let longestPhrase = 4

    static let table: [String: Unit] = {
        var table: [String: Unit] = [:]
        func add(_ phrases: [String], _ name: String, _ iso: String?, prefix: Bool = false, cents: Bool = false) {
            for phrase in phrases { table[phrase] = Unit(name: name, iso: iso, prefix: prefix, hasCents: cents) }
        }
        add(["$", "dollar", "dollars", "buck", "bucks"], "Dollar", nil, prefix: true, cents: true)
        add(["us $", "u . s $", "u . s . $", "usd", "us dollar", "us dollars", "u . s . dollar", "u . s . dollars",
             "united states dollar", "united states dollars", "american dollar", "american dollars"],
            "United States dollar", "USD", prefix: true, cents: true)
        add(["c $", "ca $", "cad", "canadian dollar", "canadian dollars"], "Canadian dollar", "CAD", prefix: true, cents: true)
        add(["a $", "au $", "aud", "australian dollar", "australian dollars"], "Australian dollar", "AUD", prefix: true, cents: true)
        add(["nz $", "nzd", "new zealand dollar", "new zealand dollars"], "New Zealand dollar", "NZD", prefix: true, cents: true)
        add(["hk $", "hkd", "hong kong dollar", "hong kong dollars"], "Hong Kong dollar", "HKD", prefix: true, cents: true)
        add(["s $", "sgd", "singapore dollar", "singapore dollars"], "Singapore dollar", "SGD", prefix: true, cents: true)
        add(["€", "eur", "euro", "euros"], "Euro", "EUR", prefix: true, cents: true)
        add(["£", "pound", "pounds", "quid"], "Pound", nil, prefix: true)
        add(["gbp", "british pound", "british pounds", "pound sterling", "pounds sterling", "sterling"], "British pound", "GBP", prefix: true)
        add(["pence", "p"], "Pence", nil)
        add(["penny", "pennies"], "Penny", nil)
        add(["cent", "cents", "¢"], "Cent", nil)
        add(["¥", "yen", "jpy", "japanese yen"], "Japanese yen", "JPY", prefix: true)
        add(["yuan", "rmb", "cny", "renminbi", "元", "kuai", "chinese yuan"], "Chinese yuan", "CNY", prefix: true)
        add(["₹", "inr", "indian rupee", "indian rupees", "rs"], "Indian rupee", "INR", prefix: true)
        add(["rupee", "rupees"], "Rupee", nil)
        add(["chf", "swiss franc", "swiss francs"], "Swiss franc", "CHF", prefix: true)
        add(["franc", "francs"], "Franc", nil)
        add(["₩", "krw", "won", "korean won", "south korean won"], "South Korean won", "KRW", prefix: true)
        add(["₽", "rub", "ruble", "rubles", "rouble", "roubles", "russian ruble", "russian rubles"], "Russian ruble", "RUB", prefix: true)
        add(["mxn", "mexican peso", "mexican pesos"], "Mexican peso", "MXN", prefix: true)
        add(["peso", "pesos"], "Peso", nil)
        add(["peseta", "pesetas"], "Peseta", nil)
        add(["dutch guilder", "dutch guilders", "netherlands guilder", "netherlands guilders"], "Netherlands guilder", nil)
        add(["finnish markka", "finnish markkas"], "Finnish markka", nil)
        add(["mark", "marks", "deutsche mark", "deutsche marks", "deutschmark", "deutschmarks"], "German mark", nil)
        add(["sek", "swedish krona", "swedish kronor"], "Swedish krona", "SEK", prefix: true)
        add(["nok", "norwegian krone", "norwegian kroner"], "Norwegian krone", "NOK", prefix: true)
        add(["dkk", "danish krone", "danish kroner"], "Danish krone", "DKK", prefix: true)
        add(["brl", "r $", "brazilian real", "brazilian reais"], "Brazilian real", "BRL", prefix: true)
        add(["zar", "rand", "south african rand"], "South African rand", "ZAR", prefix: true)
        add(["₺", "try", "turkish lira"], "Turkish lira", "TRY", prefix: true)
        add(["₡", "crc", "costa rican colon", "costa rican colón"], "Costa Rican colón", "CRC", prefix: true)
        add(["₾", "gel", "georgian lari", "lari"], "Georgian lari", "GEL", prefix: true)
        add(["₭", "lak", "lao kip", "kip"], "Lao kip", "LAK", prefix: true)
        add(["ரூ", "lkr", "sri lankan rupee", "sri lankan rupees"], "Sri Lankan rupee", "LKR", prefix: true)
        add(["₫", "vnd", "dong", "vietnamese dong"], "Vietnamese dong", "VND", prefix: true)
        add(["₪", "ils", "shekel", "shekels", "israeli new shekel"], "Israeli new shekel", "ILS", prefix: true)
        add(["₦", "ngn", "naira", "nigerian naira"], "Nigerian naira", "NGN", prefix: true)
        add(["₱", "php", "philippine peso", "philippine pesos"], "Philippine peso", "PHP", prefix: true)
        add(["฿", "thb", "baht", "thai baht"], "Thai baht", "THB", prefix: true)
        add(["₿", "btc", "bitcoin", "bitcoins"], "Bitcoin", "BTC", prefix: true)
        // A "try" or "won" or "mark" or "rand" word is more often English than money without an amount;
        // they only count as currency right after a number, which is how the recognizer uses them.
        return table
    }()

    /// The longest currency phrase starting at token `index`, with its last token.
    static func unit(in text: TokenizedText, at index: Int) -> (unit: Unit, last: Int)? {
        var phrase = ""
        var best: (Unit, Int)?
        var position = index
        while position < min(text.count, index + longestPhrase) {
            let token = text[position]
            if position > index && token.spaceBefore && token.kind == .symbol && token.text != "$" { break }
            phrase += (phrase.isEmpty ? "" : " ") + token.text
            if let unit = table[phrase] { best = (unit, position) }
            position += 1
        }
        guard let best else { return nil }
        // A unit glued to letters that follow ("dollarstore") is no unit.
        if let after = text.token(best.1 + 1), after.isWord, !after.spaceBefore, text[best.1].isWord { return nil }
        return (best.0, best.1)
    }
}
