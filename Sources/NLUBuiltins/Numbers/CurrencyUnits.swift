/// Currency names, symbols and ISO codes, as token phrases (lowercased tokens joined by one space),
/// with the unit name and ISO 4217 code Recognizers-Text reports for them.
enum CurrencyUnits {
    struct Unit: Sendable {
        var name: String
        var iso: String?
        /// Written before the amount ("$5", "USD 5") as well as after it.
        var prefix: Bool
        /// A hundredth of another unit ("cents", "pence", "sen"): it never takes hundredths itself.
        var isSubunit: Bool = false
        /// "MUSD", "MEUR": millions of the unit, as finance writes them.
        var multiplier: Int64 = 1

        /// Whether a bare number after an amount is its hundredths ("$20 43", "3 GBP and one"): units with
        /// an ISO code, and the generic names that always have cents.
        var takesHundredths: Bool {
            !isSubunit && (iso != nil || ["Dollar", "Pound", "Rupee", "Peso", "Franc", "Riyal", "Dinar"].contains(name))
        }
    }

    /// Currency codes and symbols that, written in lower case after an amount, are units of measure: "5 ft" is
    /// five feet ("5 Ft" five forints), "2 cup" two cups, "5 kgs" five kilograms, "10 kn" ten knots. Such a reading
    /// yields to the measure of the same span and takes no hundredths ("5 ft 14 in" is no 5.14 forints).
    static let lowercaseMeasureWords: Set<String> = ["ft", "cup", "kgs", "kn"]

    /// Recognizers-Text's names (CurrencyNames.swift, generated), then ours on top: phrases it lacks that
    /// people and Duckling's corpus write, and the few places where we read a phrase differently.
    static let table: [String: Unit] = {
        var table: [String: Unit] = [:]
        for line in recognizersTextNames.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }
            table[fields[0]] = Unit(name: fields[1], iso: fields[2].isEmpty ? nil : fields[2], prefix: fields[3].contains("p"),
                                    isSubunit: fields[3].contains("s"))
        }
        func add(_ phrases: [String], _ name: String, _ iso: String?, prefix: Bool = false, subunit: Bool = false) {
            for phrase in phrases { table[phrase] = Unit(name: name, iso: iso, prefix: prefix, isSubunit: subunit) }
        }
        add(["$", "dollar", "dollars", "buck", "bucks"], "Dollar", nil, prefix: true)
        add(["us $", "u . s $", "u . s . $", "usd", "usd $", "us dollar", "us dollars", "u . s . dollar", "u . s . dollars",
             "united states dollar", "united states dollars", "american dollar", "american dollars"],
            "United States dollar", "USD", prefix: true)
        add(["c $", "ca $", "cad", "cad $", "canadian dollar", "canadian dollars"], "Canadian dollar", "CAD", prefix: true)
        add(["a $", "au $", "aud", "aud $", "australian dollar", "australian dollars"], "Australian dollar", "AUD", prefix: true)
        add(["nz $", "nzd", "nzd $", "new zealand dollar", "new zealand dollars"], "New Zealand dollar", "NZD", prefix: true)
        add(["hk $", "hkd", "hong kong dollar", "hong kong dollars"], "Hong Kong dollar", "HKD", prefix: true)
        add(["s $", "sgd", "singapore dollar", "singapore dollars"], "Singapore dollar", "SGD", prefix: true)
        add(["€", "eur", "euro", "euros", "€ ur"], "Euro", "EUR", prefix: true)
        add(["£", "pound", "pounds", "quid"], "Pound", nil, prefix: true)
        add(["gbp", "british pound", "british pounds", "pound sterling", "pounds sterling", "sterling"], "British pound", "GBP", prefix: true)
        add(["pence", "p"], "Pence", nil, subunit: true)
        add(["penny", "pennies"], "Penny", nil, subunit: true)
        add(["cent", "cents", "¢"], "Cent", nil, subunit: true)
        add(["sen", "sens"], "Sen", nil, prefix: true, subunit: true)
        add(["kopiyka", "kopiykas", "kopiyok"], "Kopiyka", nil, subunit: true)
        add(["¥", "yen", "jpy", "japanese yen"], "Japanese yen", "JPY", prefix: true)
        add(["yuan", "rmb", "cny", "renminbi", "元", "kuai", "chinese yuan"], "Chinese yuan", "CNY", prefix: true)
        add(["₹", "inr", "indian rupee", "indian rupees"], "Indian rupee", "INR", prefix: true)
        add(["rupee", "rupees"], "Rupee", nil)
        add(["rs", "rs ."], "Rupee", nil, prefix: true)
        add(["chf", "swiss franc", "swiss francs"], "Swiss franc", "CHF", prefix: true)
        add(["₩", "krw", "won", "korean won", "south korean won"], "South Korean won", "KRW", prefix: true)
        add(["mxn", "mxn $", "mex $", "mexican peso", "mexican pesos"], "Mexican peso", "MXN", prefix: true)
        add(["rm", "myr", "ringgit", "ringgits"], "Malaysian ringgit", "MYR", prefix: true)
        add(["le", "l . e", "l . e .", "geneh", "genihat masriya", "egyptianpound", "egyptian pounds"], "Egyptian pound", "EGP")
        add(["saudiriyal"], "Saudi riyal", "SAR")
        add(["rials"], "Riyal", nil)
        add(["shekel", "shekels", "new shekel", "new shekels"], "Israeli new shekel", "ILS")
        add(["tugrik", "tugriks", "togrog", "togrogs"], "Mongolian tögrög", "MNT")
        add(["uah"], "Ukrainian hryvnia", "UAH", prefix: true)
        add(["₿", "btc", "bitcoin", "bitcoins"], "Bitcoin", nil, prefix: true)
        add(["satoshi", "satoshis"], "Satoshi", nil)
        // A "try" or "won" or "mark" or "rand" word is more often English than money without an amount;
        // they only count as currency right after a number, which is how the recognizer uses them.
        return table
    }()

    /// The most tokens any phrase of the table has.
    static let longestPhrase: Int = table.keys.map { $0.split(separator: " ").count }.max() ?? 1

    /// A phrase of the table or a proper beginning of one ("u", "u .", "u . s" for "u . s . dollar").
    struct Phrase: Sendable {
        /// The unit when the phrase is a whole one.
        var unit: Unit?
        /// Whether a longer phrase begins with this one.
        var continues: Bool
    }

    /// Every phrase and every proper beginning of one, in one table: a look-up stops as soon as the words
    /// read so far begin no phrase, so most tokens cost one dictionary probe.
    static let phrases: [String: Phrase] = {
        var phrases = table.mapValues { Phrase(unit: $0, continues: false) }
        for phrase in table.keys {
            var words = phrase.split(separator: " ")
            while words.count > 1 {
                words.removeLast()
                phrases[words.joined(separator: " "), default: Phrase(unit: nil, continues: true)].continues = true
            }
        }
        return phrases
    }()

    /// The longest currency phrase starting at token `index`, with its last token.
    static func unit(in text: TokenizedText, at index: Int) -> (unit: Unit, last: Int)? {
        guard index >= 0, index < text.count, !text[index].isDigits else { return nil }
        let phrases = Self.phrases
        var phrase = text[index].text
        var best: (Unit, Int)?
        var position = index
        while let found = phrases[phrase] {
            if let unit = found.unit { best = (unit, position) }
            position += 1
            guard found.continues, position < min(text.count, index + longestPhrase) else { break }
            let token = text[position]
            if token.spaceBefore && token.kind == .symbol && token.text != "$" { break }
            phrase += " " + token.text
        }
        if best == nil, let millions = millionsOfISO(text[index]) { best = (millions, index) }
        guard let best else { return nil }
        // A unit glued to letters that follow ("dollarstore") is no unit.
        if let after = text.token(best.1 + 1), after.isWord, !after.spaceBefore, text[best.1].isWord { return nil }
        return (best.0, best.1)
    }

    /// "musd", "meur", "maud": an ISO code with an "M" for millions in front.
    private static func millionsOfISO(_ token: Token) -> Unit? {
        guard token.isWord, token.text.count == 4, token.text.hasPrefix("m"), var unit = table[String(token.text.dropFirst())],
              let iso = unit.iso, iso.lowercased() == token.text.dropFirst() else { return nil }
        unit.multiplier = 1_000_000
        return unit
    }
}
