/// The words a date-time expression can begin with, so that ``DateTimeRecognizer`` tries its patterns
/// only where one can start: on about a third of the tokens of ordinary text instead of all of them, with
/// the same entities found (the date-time parsers are most of the extraction time on long text).
///
/// A word can begin a date-time when it is one of ``leads``, a month, weekday, part of the day, unit or
/// first word of a holiday name, or where a number begins ("two days ago", "first Monday of May").
/// Digits always can. `DateTimeLeadWordsTests` keeps the list whole: every lower-case word literal in
/// `Sources/NLUBuiltins/DateTime` must be in ``leads`` or ``followers``, and the recognizer must find
/// the same candidates with and without the filter on every corpus text.
enum DateTimeLeadWords {
    /// Words the date-time parsers compare at some token; any of them may be the first word of an
    /// expression ("the", "in", "at", "every", "by", "tonight"…). A new word in a parser goes here
    /// unless it can only follow another.
    static let leads: Set<String> = [
        "a", "a.m.", "about", "additional", "after", "afternoon", "all", "ampm", "an", "annual", "annually",
        "another", "any", "approx", "approximately", "apr", "april", "around", "as", "at", "aug", "august", "before",
        "beginning", "between", "bi", "bimonthly", "biweekly", "breakfast", "by", "c", "calendar", "centuries", "century",
        "christmas", "circa", "clock", "coming", "commencing", "couple", "current", "cy", "daily", "day", "days",
        "daytime", "dec", "decade", "decades", "december", "dinner", "dinnertime", "during", "each", "earlier", "early", "easter", "end",
        "eod", "eom", "eoy", "evening", "every", "everyday", "extra", "feb", "february", "few", "fewer", "fifth",
        "first", "following", "for", "fortnight", "fortnightly", "fortnights", "fourth", "fri", "friday", "fridays", "from", "greater", "h",
        "half", "hallowe'en", "halloween", "hour", "hourly", "hours", "hr", "hrs", "in", "ish", "jan", "january",
        "jul", "july", "jun", "june", "juneteenth", "last", "late", "later", "less", "lunch", "lunchtime", "m",
        "mar", "march", "may", "mid", "midday", "middle", "midnight", "min", "mins", "minute", "minutes", "moment",
        "mon", "monday", "mondays", "month", "monthly", "months", "more", "morning", "mornings", "newer", "next",
        "night", "nightly", "nights", "no", "noon", "noonish", "noontime", "nov", "november", "now", "o", "o'clock",
        "oclock", "oct", "october", "on", "once", "one", "other", "p", "past", "pentecost", "previous", "prior", "q",
        "qtr", "quarter", "quarterly", "quarters", "right", "s", "sat", "saturday", "saturdays", "sec", "second",
        "seconds", "secs", "semi", "semiannual", "semiannually", "sep", "sept", "september", "seven", "several",
        "since", "some", "sooner", "start", "starting", "sun", "sunday", "sundays", "thanksgiving", "the", "this",
        "three", "through", "thru", "thu", "thur", "thurs", "thursday", "thursdays", "til", "till", "tmr", "today",
        "tommorow", "tomorow", "tomorrow", "tonight", "tonite", "tue", "tues", "tuesday", "tuesdays", "two", "until", "untill",
        "upcoming", "valentine's", "w", "wed", "wednesday", "wednesdays", "week", "weekday", "weekend", "weekly",
        "weeks", "whitmonday", "whitsunday", "within", "wk", "wks", "xmas", "year", "yearly", "years", "yesterday",
        "yr", "yrs",
        // Single-word names of holidays of lunar calendars (HolidayTable).
        "annakoot", "annakut", "ashura", "baisakhi", "boghi", "channukah", "channukkah", "chanukah", "chanukkah", "chhath",
        "chhathi", "dasara", "deepavali", "dhanatrayodashi", "dhanteras", "dhulandi", "dhuleti", "diwali",
        "durgashtami", "durgotsava", "dussehra", "dusshera", "gokulashtami", "gysd", "hannukah", "hannukkah", "hanukah",
        "hanukka", "hanukkah", "holi", "janmashtami", "koningsdag", "lent", "maghi", "mahashivaratri", "mahashtami",
        "mawlid", "mesadi", "mevlid", "mevlit", "muharram", "mulud", "navarathri", "navaratri", "navrathri",
        "navratri", "onam", "pascha", "passover", "pesach", "pesah", "pesak", "phagwah", "pongal", "purim", "rakhi",
        "rakshabandhan", "ramadan", "ramadhan", "ramathan", "ramzaan", "ramzan", "rathayatra", "rathjatra",
        "samvatsaradi", "sankranthi", "sankranti", "shavuos", "shavuot", "shavuoth", "shovuos", "succos", "succot",
        "sukkos", "sukkot", "thiruvonam", "ugadi", "vaisak", "vaisakha", "vaisakhadi", "vaisakhi", "vaishakhi",
        "vasakhi", "vesak", "vesakha", "vijayadashami", "yugadi",
    ]

    /// Words the parsers read only after another word of the expression, or before it as context
    /// ("2 days ago", "quarter to 5", "how about", "good morning"). Frequent in ordinary text, so
    /// leaving them out of ``leads`` is most of what the filter saves.
    static let followers: Set<String> = [
        "ago", "and", "am", "back", "good", "hence", "how", "of", "or", "pm", "than", "to", "what",
        // Before "last" as a verb ("it shouldn't last two hours").
        "can", "can't", "cannot", "could", "did", "didn't", "do", "does", "doesn't", "don't", "i", "it", "might", "must",
        "not", "should", "shouldn't", "that", "they", "we", "which", "will", "won't", "would", "you",
    ]

    /// Every word that may begin a date-time, the parsers' own vocabularies included.
    private static let all: Set<String> = {
        var words = leads
        words.formUnion(DateTimeWords.months.keys)
        words.formUnion(DateTimeWords.weekdays.keys)
        words.formUnion(DateTimeWords.partsOfDay.keys)
        words.formUnion(DateTimeWords.partsOfDay.filter { !$0.value.isMeal }.keys.map { $0 + "s" })  // "mornings"
        words.formUnion(DateTimeWords.units.keys)
        words.formUnion(Holiday.firstWords)
        return words
    }()

    /// Whether the word token at `index` may begin a date-time.
    static func mayLead(_ text: TokenizedText, at index: Int, numbers: NumberParser) -> Bool {
        let word = text[index].text
        if all.contains(word) { return true }
        // Holiday names are read with typographic apostrophes made straight ("new year’s").
        if word.unicodeScalars.contains("\u{2019}") { return true }
        return numbers.parse(at: index) != nil
    }
}
