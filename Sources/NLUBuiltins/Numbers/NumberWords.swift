/// English number vocabulary: cardinal and ordinal words, scales, fraction denominators, and the
/// multiplier suffixes written after digits ("1.5k", "10M", "2 bln").
enum NumberWords {
    static let units: [String: Int64] = [
        "zero": 0, "nought": 0, "naught": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
        "six": 6, "seven": 7, "eight": 8, "nine": 9,
    ]
    static let teens: [String: Int64] = [
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    static let tens: [String: Int64] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    ]
    /// Scale words that close a group ("thousand", "million", Indian "lakh", "crore").
    static let scales: [String: Int64] = [
        "thousand": 1_000, "thousands": 1_000, "million": 1_000_000, "millions": 1_000_000,
        "billion": 1_000_000_000, "billions": 1_000_000_000, "trillion": 1_000_000_000_000,
        "trillions": 1_000_000_000_000, "lakh": 100_000, "lakhs": 100_000, "crore": 10_000_000,
        "crores": 10_000_000, "lac": 100_000, "lacs": 100_000, "lkh": 100_000, "lkhs": 100_000, "cr": 10_000_000,
        "crs": 10_000_000, "krore": 10_000_000, "krores": 10_000_000, "koti": 10_000_000,
        "quadrillion": 1_000_000_000_000_000, "quadrillions": 1_000_000_000_000_000,
        "quintillion": 1_000_000_000_000_000_000, "quintillions": 1_000_000_000_000_000_000,
    ]
    /// Scale words that are a number on their own ("a path of hundred steps", "million to one"), as
    /// Duckling and number-parser read them; plurals ("millions of users") and Indian scales are not.
    static let bareScales: Set<String> = ["hundred", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion"]
    static let dozens: Set<String> = ["dozen", "dozens", "dz", "dzs", "doz", "dozs"]

    static let ordinalUnits: [String: Int64] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "nineth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
        "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    ]
    static let ordinalTens: [String: Int64] = [
        "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
        "eightieth": 80, "ninetieth": 90,
    ]
    static let ordinalScales: [String: Int64] = [
        "hundredth": 100, "thousandth": 1_000, "millionth": 1_000_000, "billionth": 1_000_000_000,
        "trillionth": 1_000_000_000_000, "quadrillionth": 1_000_000_000_000_000,
        "quintillionth": 1_000_000_000_000_000_000,
    ]

    /// The value of an ordinal word ("fifth" 5, "twentieth" 20, "hundredth" 100), or nil.
    static func ordinal(_ word: String) -> Int64? {
        ordinalUnits[word] ?? ordinalTens[word] ?? ordinalScales[word]
    }

    /// A tens word and a unit or ordinal unit written as one word ("twentyfive", "twentyfifth"): the tens,
    /// and the rest's value and whether it is an ordinal. Nil for any other word.
    static func gluedTens(_ word: String) -> (Int64, (value: Int64, ordinal: Bool))? {
        guard word.count > 5, tens[word] == nil else { return nil }
        for (name, value) in tens where word.hasPrefix(name) {
            let rest = String(word.dropFirst(name.count))
            if let unit = units[rest], unit > 0 { return (value, (unit, false)) }
            if let unit = ordinalUnits[rest], unit < 10 { return (value, (unit, true)) }
        }
        return nil
    }

    /// The denominator of a plural fraction word ("thirds" 3, "quarters" 4, "halves" 2), or nil.
    static func pluralDenominator(_ word: String) -> Int64? {
        switch word {
        case "halves": return 2
        case "quarters": return 4
        case "seconds": return nil  // "two seconds" is a duration, not 2/2
        default:
            guard word.hasSuffix("s") else { return nil }
            let singular = String(word.dropLast())
            guard let value = ordinal(singular), value > 2 else { return nil }
            return value
        }
    }

    /// The multiplier written right after digits: "k" 1e3, "M"/"mm"/"mil" 1e6, "G"/"b"/"bn"/"bln" 1e9,
    /// "T"/"tln" 1e12. A lower-case "m" is metres or minutes, not a million.
    static func suffixMultiplier(_ word: String, capitalized: Bool) -> Int64? {
        switch word {
        case "k": return 1_000
        case "m": return capitalized ? 1_000_000 : nil
        case "mm", "mil", "mln": return 1_000_000
        case "g", "b", "bn", "bln": return 1_000_000_000
        case "t": return capitalized ? 1_000_000_000_000 : nil
        case "tln": return 1_000_000_000_000
        default: return nil
        }
    }

    /// Every word a spelled number can begin with: units, teens, tens, "hundred", scales, "a"/"an",
    /// "point", fraction words, ordinals, plural denominators ("fifths") and tens glued to a unit
    /// ("fortytwo", "twentyfifth"), spelled out from the same tables ``gluedTens`` and
    /// ``pluralDenominator`` read. The number parser looks a word up here once before trying its rules,
    /// so most words of a text cost one hash instead of a dozen.
    static let startWords: Set<String> = {
        var words = Set(units.keys).union(teens.keys).union(tens.keys).union(scales.keys)
        words.formUnion(["hundred", "hundreds", "a", "an", "point", "half", "quarter", "halves", "quarters"])
        for table in [ordinalUnits, ordinalTens, ordinalScales] {
            for (word, value) in table {
                words.insert(word)
                if value > 2 { words.insert(word + "s") }
            }
        }
        for tensWord in tens.keys {
            for (unit, value) in units where value > 0 { words.insert(tensWord + unit) }
            for (unit, value) in ordinalUnits where value < 10 { words.insert(tensWord + unit) }
        }
        return words
    }()

    /// Ordinal suffixes after digits ("21st", "4th").
    static let ordinalSuffixes: Set<String> = ["st", "nd", "rd", "th"]
}
