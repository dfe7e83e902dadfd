/// Holidays said by name: "christmas", "easter 2018", "last thanksgiving", "MLK day of last year".
/// Each is a rule that gives its date in a year: a fixed day, the nth weekday of a month, or a
/// distance from (Western) Easter Sunday.
enum Holiday: Sendable, Equatable {
    case fixed(month: Int, day: Int)
    /// The `nth` `weekday` (ISO, Monday 1) of `month`; `nth` -1 is the last.
    case nthWeekday(month: Int, weekday: Int, nth: Int)
    /// Easter Sunday moved by `days`.
    case easter(days: Int)
    /// The day after Thanksgiving (the fourth Thursday of November).
    case blackFriday
    /// A day of a lunar or lunisolar calendar, from Duckling's tables (``HolidayTable``), moved by `days`.
    case table(HolidayTable.Name, days: Int)
    /// The last `weekday` strictly before a table's day (Jumu'atul-Wida: the Friday before Eid al-Fitr).
    case weekdayBefore(HolidayTable.Name, weekday: Int)
    /// The weekday nearest to a fixed day (Boss's Day: October 16, or the Friday or Monday next to it).
    case nearestWeekday(month: Int, day: Int)
    /// King's Day: April 27, or the 26th when the 27th is a Sunday.
    case kingsDay
    /// Every 365 days from a day, leap years ignored (Parsi New Year, as Duckling counts it).
    case every365Days(from: CivilDate)

    /// The TIMEX of the holiday with its year left open, when one TIMEX is true of it in every year: a fixed day
    /// ("XXXX-12-25"), or the nth weekday of a month in Recognizers-Text's holiday form ("XXXX-11-WXX-4-4",
    /// Thanksgiving; the last one as its date parser writes "last Monday of May": "XXXX-05-WXX-1-#5"). Nil for a
    /// holiday whose month and day move from year to year (Easter-based, lunar, the day after Thanksgiving…): no
    /// open TIMEX names those, so each reading is written with its own month and day (``SpokenDate/timex(of:)``),
    /// where Recognizers-Text writes the reference year's for both and so disagrees with one of them.
    var openYearTimex: String? {
        switch self {
        case .fixed(let month, let day):
            return "XXXX-" + Timex.pad(month, 2) + "-" + Timex.pad(day, 2)
        case .nthWeekday(let month, let weekday, let nth):
            return "XXXX-" + Timex.pad(month, 2) + "-WXX-" + String(weekday) + "-" + (nth > 0 ? String(nth) : "#5")
        default:
            return nil
        }
    }

    /// The holiday's date in `year`.
    func date(in year: Int) -> CivilDate? {
        guard year >= 1583, year <= 9999 else { return nil }
        switch self {
        case .fixed(let month, let day):
            return CivilDate(year: year, month: month, day: day)
        case .nthWeekday(let month, let weekday, let nth):
            guard let first = CivilDate(year: year, month: month, day: 1) else { return nil }
            if nth < 0 {
                let last = first.adding(months: 1).adding(days: -1)
                return last.adding(days: -((last.weekday - weekday + 7) % 7))
            }
            return first.adding(days: (weekday - first.weekday + 7) % 7 + 7 * (nth - 1))
        case .easter(let days):
            return Self.easterSunday(year).adding(days: days)
        case .blackFriday:
            return Holiday.nthWeekday(month: 11, weekday: 4, nth: 4).date(in: year)?.adding(days: 1)
        case .table(let name, let days):
            return HolidayTable.date(name, in: year)?.adding(days: days)
        case .weekdayBefore(let name, let weekday):
            guard let day = HolidayTable.date(name, in: year) else { return nil }
            return day.adding(days: -((day.weekday - weekday + 6) % 7 + 1))
        case .nearestWeekday(let month, let day):
            guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
            return date.weekday == 6 ? date.adding(days: -1) : date.weekday == 7 ? date.adding(days: 1) : date
        case .kingsDay:
            guard let date = CivilDate(year: year, month: 4, day: 27) else { return nil }
            return date.weekday == 7 ? date.adding(days: -1) : date
        case .every365Days(let from):
            // The k-th day of the series falls in `year` for k near year - from.year (drift: a day in 4 years).
            for k in (year - from.year - 1)...(year - from.year + 1) {
                let date = from.adding(days: 365 * k)
                if date.year == year { return date }
            }
            return nil
        }
    }

    /// Easter Sunday in the Gregorian calendar (the anonymous "Meeus/Jones/Butcher" computus).
    static func easterSunday(_ year: Int) -> CivilDate {
        let a = year % 19, b = year / 100, c = year % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(year: year, month: month, day: day)!
    }

    /// Names as word sequences (lowercased; apostrophes and dots between words are skipped when read).
    static let names: [([String], Holiday)] = {
        var table: [([String], Holiday)] = []
        func add(_ names: [String], _ holiday: Holiday) {
            for name in names { table.append((name.split(separator: " ").map(String.init), holiday)) }
        }
        add(["christmas", "christmas day", "xmas", "xmas day"], .fixed(month: 12, day: 25))
        add(["christmas eve", "xmas eve"], .fixed(month: 12, day: 24))
        add(["new year's eve", "new years eve", "new year eve"], .fixed(month: 12, day: 31))
        add(["new year's day", "new years day", "new year day", "new year", "new year's"], .fixed(month: 1, day: 1))
        add(["valentine's day", "valentines day", "valentine day", "valentine's"], .fixed(month: 2, day: 14))
        add(["halloween", "hallowe'en"], .fixed(month: 10, day: 31))
        add(["independence day", "fourth of july", "4th of july"], .fixed(month: 7, day: 4))
        add(["st patrick's day", "saint patrick's day", "st patricks day", "saint patricks day", "st paddy's day",
             "saint paddy's day", "st patrick", "saint patrick", "st patrick's", "saint patrick's"], .fixed(month: 3, day: 17))
        add(["earth day"], .fixed(month: 4, day: 22))
        add(["international workers day", "international workers' day", "workers day", "labour day international"], .fixed(month: 5, day: 1))
        add(["juneteenth", "freedom day", "jubilee day"], .fixed(month: 6, day: 19))
        add(["world vegan day"], .fixed(month: 11, day: 1))
        add(["veterans day", "veteran's day", "veterans' day"], .fixed(month: 11, day: 11))
        add(["boxing day"], .fixed(month: 12, day: 26))
        add(["thanksgiving", "thanksgiving day"], .nthWeekday(month: 11, weekday: 4, nth: 4))
        add(["black friday"], .blackFriday)
        add(["labor day", "labour day"], .nthWeekday(month: 9, weekday: 1, nth: 1))
        add(["memorial day"], .nthWeekday(month: 5, weekday: 1, nth: -1))
        add(["mlk day", "mlk jr day", "martin luther king day", "martin luther king's day", "martin luther kings day",
             "martin luther king jr day", "civil rights day"], .nthWeekday(month: 1, weekday: 1, nth: 3))
        add(["presidents day", "presidents' day", "president's day", "washington's birthday"], .nthWeekday(month: 2, weekday: 1, nth: 3))
        add(["columbus day"], .nthWeekday(month: 10, weekday: 1, nth: 2))
        add(["mother's day", "mothers day", "mothers' day"], .nthWeekday(month: 5, weekday: 7, nth: 2))
        add(["father's day", "fathers day", "fathers' day"], .nthWeekday(month: 6, weekday: 7, nth: 3))
        add(["easter", "easter sunday", "easter day"], .easter(days: 0))
        add(["easter monday", "easter mon"], .easter(days: 1))
        add(["good friday"], .easter(days: -2))
        add(["maundy thursday", "holy thursday"], .easter(days: -3))
        add(["palm sunday", "branch sunday"], .easter(days: -7))
        add(["ash wednesday"], .easter(days: -46))
        add(["mardi gras", "shrove tuesday", "pancake day"], .easter(days: -47))
        add(["pentecost", "whit sunday", "white sunday", "whitsunday"], .easter(days: 49))
        add(["whit monday", "whitmonday", "pentecost monday", "monday of the holy spirit"], .easter(days: 50))
        add(["trinity sunday"], .easter(days: 56))
        add(["ascension day", "ascension thursday"], .easter(days: 39))
        add(["corpus christi", "the feast of corpus christi", "feast of corpus christi"], .easter(days: 60))
        add(["holy saturday", "black saturday", "joyous saturday", "easter eve", "holy and great saturday"], .easter(days: -1))
        add(["good fri", "great friday", "holy friday"], .easter(days: -2))
        add(["covenant thursday", "covenant thu", "sheer thursday", "great and holy thursday", "maundy thu", "holy thu",
             "thursday of mysteries", "thu of mysteries"], .easter(days: -3))
        add(["yew sunday"], .easter(days: -7))
        add(["boss's day", "bosses day", "boss day", "bosss day"], .nearestWeekday(month: 10, day: 16))
        add(["king's day", "kings day", "koningsdag"], .kingsDay)
        add(["parsi new year", "jamshedi navroz"], .every365Days(from: CivilDate(year: 2020, month: 8, day: 16)!))
        addComputed(&table)
        return table
    }()

    /// The holiday named at `index` (the longest name), and the index after it.
    static func read(_ text: TokenizedText, at index: Int) -> (Holiday, Int)? {
        longestName(text, at: index, in: namesByFirstWord)
    }

    /// The holiday lasting several days named at `index` ("passover", "ramadan"): its first day, its last
    /// day, and the index after the name.
    static func readSpan(_ text: TokenizedText, at index: Int) -> (Holiday, Holiday, Int)? {
        guard let (pair, end) = longestName(text, at: index, in: spanNamesByFirstWord) else { return nil }
        return (pair.first, pair.last, end)
    }

    /// Holidays of several days, each with its first and last day (Duckling's EN intervals).
    struct Span: Sendable { var first: Holiday; var last: Holiday }

    static let spanNames: [([String], Span)] = {
        var table: [([String], Span)] = []
        func add(_ names: [String], _ first: Holiday, _ last: Holiday) {
            for name in names { table.append((name.split(separator: " ").map(String.init), Span(first: first, last: last))) }
        }
        add(["lent"], .easter(days: -46), .easter(days: -1))
        add(["great lent", "great fast"], .table(.orthodoxEaster, days: -48), .table(.orthodoxEaster, days: -9))
        add(["hanukkah", "hanukah", "hannukah", "hanukkah", "hannukkah", "chanukah", "chanukkah", "channukah", "channukkah"],
            .table(.chanukah, days: 0), .table(.chanukah, days: 7))
        add(["navaratri", "navratri", "navarathri", "navrathri", "durga puja", "durgotsava"], .table(.navaratri, days: 0), .table(.navaratri, days: 9))
        add(["passover", "pesach", "pesah", "pesak"], .table(.passover, days: 0), .table(.passover, days: 8))
        add(["ramadan", "ramadhan", "ramathan", "ramzan", "ramzaan"], .table(.ramadan, days: 0), .table(.eidalFitr, days: -1))
        add(["rosh hashanah", "rosh hashana", "rosh hashanna", "rosh hashannah", "yom teruah"],
            .table(.roshHashana, days: 0), .table(.roshHashana, days: 2))
        add(["shavuot", "shavuoth", "shavuos", "shovuos", "feast of weeks"], .table(.passover, days: 50), .table(.passover, days: 52))
        add(["sukkot", "succot", "sukkos", "succos", "feast of booths", "feast of tabernacles", "feast of the ingathering"],
            .table(.roshHashana, days: 14), .table(.roshHashana, days: 22))
        add(["global youth service day", "gysd"], .table(.globalYouthServiceDay, days: 0), .table(.globalYouthServiceDay, days: 2))
        return table
    }()

    private static let spanNamesByFirstWord: [String: [([String], Span)]] = Dictionary(grouping: spanNames, by: { firstWordKey($0.0) })

    /// The longest of `candidates`' names said at `index`, and the index after it.
    private static func longestName<Value>(_ text: TokenizedText, at index: Int, in table: [String: [([String], Value)]]) -> (Value, Int)? {
        guard let first = text.word(index), let candidates = table[straightened(first)] else { return nil }
        var best: (Value, Int)?
        for (words, holiday) in candidates {
            var position = index
            var matched = true
            for word in words {
                // "MLK Jr. day": a dot between words is skipped, and a hyphen ("Eid al-Fitr").
                while position > index, let token = text.token(position), token.isSymbol(".") || token.isSymbol("-") { position += 1 }
                guard let said = text.word(position), straightened(said) == word
                        || (word.hasSuffix("'") && said == String(word.dropLast())) else {
                    matched = false
                    break
                }
                position += 1
                // "workers' day": the apostrophe after the word is a token of its own.
                if word.hasSuffix("'"), let mark = text.token(position), mark.isSymbol("'") || mark.isSymbol("\u{2019}") { position += 1 }
            }
            if matched, position > (best?.1 ?? index) { best = (holiday, position) }
        }
        return best
    }

    /// A word with its typographic apostrophes made straight ("new year’s" is "new year's"); most words
    /// have none and are returned as they are, without Foundation's string search.
    private static func straightened(_ word: String) -> String {
        guard word.unicodeScalars.contains("\u{2019}") else { return word }
        return String(String.UnicodeScalarView(word.unicodeScalars.map { $0 == "\u{2019}" ? "'" : $0 }))
    }

    /// The names by their first word, in the order of `names` (the first of equally long matches wins):
    /// a token that begins no name costs one look-up.
    private static let namesByFirstWord: [String: [([String], Holiday)]] = Dictionary(grouping: names, by: { firstWordKey($0.0) })

    /// The words a holiday's name can begin with, as tokens of text read them (``DateTimeLeadWords``).
    static let firstWords: Set<String> = Set(names.map { firstWordKey($0.0) } + spanNames.map { firstWordKey($0.0) })

    /// A name's first word as a token of text reads: a first word with a final apostrophe (Veterans' Day) is a word
    /// token and an apostrophe token; keyed with the apostrophe, such a name was never found.
    private static func firstWordKey(_ words: [String]) -> String {
        let first = words[0]
        return first.hasSuffix("'") ? String(first.dropLast()) : first
    }
}
