/// English date-time vocabulary: months, weekdays, parts of the day, duration units.
enum DateTimeWords {
    static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
        "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
        "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    ]
    static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1, "mondays": 1, "tuesday": 2, "tue": 2, "tues": 2, "tuesdays": 2, "wednesday": 3, "wed": 3,
        "wednesdays": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4, "thursdays": 4, "friday": 5, "fri": 5,
        "fridays": 5, "saturday": 6, "sat": 6, "saturdays": 6, "sunday": 7, "sun": 7, "sundays": 7,
    ]

    /// A part of the day: its TIMEX code and LUIS's hours for it.
    struct PartOfDay: Sendable {
        var code: String
        var start: (Int, Int, Int)
        var end: (Int, Int, Int)
        /// Whether an hour said with it is after noon ("7 in the evening").
        var afternoon: Bool
        /// Lunch, dinner, breakfast: said alone or with "at" ("at lunch").
        var isMeal = false
    }

    /// The part of the day a word names, plurals ("mornings") included.
    static func partOfDay(_ word: String) -> PartOfDay? {
        if let part = partsOfDay[word] { return part }
        if word.hasSuffix("s"), let part = partsOfDay[String(word.dropLast())], !part.isMeal { return part }
        return nil
    }
    static let partsOfDay: [String: PartOfDay] = [
        "morning": PartOfDay(code: "MO", start: (8, 0, 0), end: (12, 0, 0), afternoon: false),
        "afternoon": PartOfDay(code: "AF", start: (12, 0, 0), end: (16, 0, 0), afternoon: true),
        "evening": PartOfDay(code: "EV", start: (16, 0, 0), end: (20, 0, 0), afternoon: true),
        "night": PartOfDay(code: "NI", start: (20, 0, 0), end: (23, 59, 59), afternoon: true),
        "daytime": PartOfDay(code: "DT", start: (8, 0, 0), end: (18, 0, 0), afternoon: false),
        "breakfast": PartOfDay(code: "MEB", start: (8, 0, 0), end: (12, 0, 0), afternoon: false, isMeal: true),
        "lunch": PartOfDay(code: "MEL", start: (11, 0, 0), end: (13, 0, 0), afternoon: false, isMeal: true),
        "lunchtime": PartOfDay(code: "MEL", start: (11, 0, 0), end: (13, 0, 0), afternoon: false, isMeal: true),
        "dinner": PartOfDay(code: "MED", start: (16, 0, 0), end: (20, 0, 0), afternoon: true, isMeal: true),
        "dinnertime": PartOfDay(code: "MED", start: (16, 0, 0), end: (20, 0, 0), afternoon: true, isMeal: true),
    ]

    /// A calendar or clock unit: TIMEX letter, whether it belongs after "T", its length in seconds (LUIS counts
    /// a month as 30 days and a year as 365), and how many of the letter's unit it makes: a decade is 10 years,
    /// a century 100 and a fortnight 2 weeks, written so in the TIMEX as Recognizers-Text does ("a decade" P10Y,
    /// "next fortnight" P2W).
    struct Unit: Sendable, Equatable {
        var letter: String
        var isTime: Bool
        var seconds: Double
        var multiple: Int = 1

        /// The unit of the TIMEX letter: years for a decade, weeks for a fortnight.
        var base: Unit { Unit(letter: letter, isTime: isTime, seconds: seconds / Double(multiple)) }
    }
    static let units: [String: Unit] = {
        var table: [String: Unit] = [:]
        func add(_ words: [String], _ letter: String, _ isTime: Bool, _ seconds: Double, multiple: Int = 1) {
            for word in words {
                table[word] = Unit(letter: letter, isTime: isTime, seconds: seconds * Double(multiple), multiple: multiple)
            }
        }
        add(["century", "centuries"], "Y", false, 31_536_000, multiple: 100)
        add(["decade", "decades"], "Y", false, 31_536_000, multiple: 10)
        add(["year", "years", "yr", "yrs"], "Y", false, 31_536_000)
        add(["month", "months"], "M", false, 2_592_000)
        add(["fortnight", "fortnights"], "W", false, 604_800, multiple: 2)
        add(["week", "weeks", "wk", "wks"], "W", false, 604_800)
        add(["day", "days", "night", "nights"], "D", false, 86_400)
        add(["hour", "hours", "hr", "hrs", "h"], "H", true, 3_600)
        add(["minute", "minutes", "min", "mins"], "M", true, 60)
        add(["second", "seconds", "sec", "secs", "s"], "S", true, 1)
        return table
    }()

    /// Words that make a following month name a date ("in May") rather than the verb ("May I…").
    static let monthLeads: Set<String> = [
        "in", "during", "this", "next", "last", "since", "until", "till", "by", "of", "early", "late", "mid", "from",
        "to", "through", "before", "after", "for", "on", "the", "and", "between",
    ]
}
