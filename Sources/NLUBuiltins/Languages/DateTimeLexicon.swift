import Foundation
import NLUText

/// The date-time words of a language other than English, read by ``LexiconDateTimeRecognizer``: months,
/// weekdays, days named from today ("demain", "pasado mañana"), parts of the day, units, and the small words
/// that join them ("à", "a las", "du … au", "entre … y", "il y a", "dentro de", "chaque"). Phrases are written
/// as the language writes them; they are looked up folded (``NumberLexicon/fold(_:)``: lower case, no accents),
/// token by token, so "après-midi" and "apres-midi" read alike. One table per language
/// (`Languages/<Language>/<Language>DateTimeWords.swift`); the rules that read them are shared.
struct DateTimeLexicon: Sendable {
    var months = PhraseTable<Int>()
    /// Short month names ("sept", "ene"): a month only next to a day or a year, or after "ce" / "este".
    var monthAbbreviations = PhraseTable<Int>()
    var weekdays = PhraseTable<Int>()
    /// Short weekday names ("mer", "lun"): a weekday only before a day of the month ("mer. 10 juin").
    var weekdayAbbreviations = PhraseTable<Int>()
    /// Days named from today: "aujourd'hui" 0, "demain" 1, "avant-hier" -2.
    var relativeDays = PhraseTable<Int>()
    /// A part of the day after a date or on its own ("matin", "après-midi", "tarde").
    var partsOfDay = PhraseTable<DateTimeWords.PartOfDay>()
    /// Words that make a part of the day of what follows ("dans le", "le", "en la", "por la").
    var partOfDayLeads = PhraseTable<Bool>()
    /// A part of the day after a time that sets its half: "du matin", "de l'après-midi", "de la tarde".
    var timeSuffixes = PhraseTable<DateTimeWords.PartOfDay>()
    /// Duration units: "jours" D, "heures" H, "minutos" M (a time), "años" Y.
    var units = PhraseTable<DateTimeWords.Unit>()
    /// Words that say a number of hours is a clock time: "heures", "h", "horas".
    var hourWords = PhraseTable<Bool>()
    var minuteWords = PhraseTable<Bool>()
    /// Words before a clock time: "à", "vers", "a las", "a la".
    var timeLeads = PhraseTable<Bool>()
    /// Minutes said after the hour: "et demie" 30, "et quart" 15, "moins le quart" -15, "y media" 30.
    var minuteFractions = PhraseTable<Int>()
    /// The word before minutes taken off the next hour: "moins", "menos".
    var minus = PhraseTable<Bool>()
    /// The word before minutes added to the hour: "et", "y".
    var plus = PhraseTable<Bool>()
    /// Noon and midnight: 12 and 0.
    var namedHours = PhraseTable<Int>()
    var now = PhraseTable<Bool>()
    /// "le plus tôt possible", "lo antes posible": FUTURE_REF.
    var soonest = PhraseTable<Bool>()
    /// "fin de": the last second of the day after it.
    var endOf = PhraseTable<Bool>()
    /// "o más tarde", "y después" after a date or time: since then.
    var orLater = PhraseTable<Bool>()
    /// "más tarde" (true) and "más temprano" (false) before this week, month or year: its later or earlier part.
    var laterOrEarlier = PhraseTable<Bool>()
    /// "día" after "fin de": today ("al final del día").
    var theDay = PhraseTable<Bool>()
    /// "después" after an amount of time: that far from now ("30 minutos después").
    var later = PhraseTable<Bool>()
    /// A part of a day named from today in one word: "anoche" (-1, the night).
    var dayParts = PhraseTable<DayPart>()
    /// "dans les", "en las próximas": within so many hours or minutes from now.
    var within = PhraseTable<Bool>()
    /// "ce", "cette", "este", "esta": the current one.
    var this = PhraseTable<Bool>()
    /// Before or after what they qualify: "prochain" / "próximo" 1, "dernier" / "pasado" -1.
    var relativeBefore = PhraseTable<Int>()
    var relativeAfter = PhraseTable<Int>()
    /// Before a weekday or a month, its nearest occurrence: the coming one (1, Dutch "aanstaande vrijdag", "aanstaande
    /// september") or the last one (-1, "afgelopen woensdag"), where "volgende" and "vorige" move by whole weeks.
    var nearest = PhraseTable<Int>()
    /// Whether a number before an hour word is always a clock time ("zehn Uhr"; French "heures" is also an amount).
    var hourWordIsClock = false
    /// The hours a number before an hour word says as a clock time when ``hourWordIsClock``: every one for German
    /// "Uhr"; Dutch "uur" is also the amount ("10 uur" is ten o'clock, "1 uur" and "24 uur" are amounts of time).
    var hourWordClockHours = 0...24
    /// Whether hours and minutes written with a period are a clock time without a word before them (Dutch "15.00",
    /// "8.30"); a day and month written so ("20.10") are then no date.
    var dotClockTimes = false
    /// Words after a number that make it no clock time: Dutch "6.45 procent".
    var notTimes = PhraseTable<Bool>()
    /// Time leads the spec keeps in a time written with a period (Dutch "om 6.45", "om 20.15u"; "om 8:00" is "8:00").
    var dotTimeLeads = PhraseTable<Bool>()
    /// Whether a day of the month is written with a period, as German ordinals are ("2. Oktober").
    var dayDot = false
    /// Minutes said before the hour they move: "halb 8" (-30 from 8), "Viertel nach 8" (+15), "dreiviertel 8" (-15).
    var hourFractionsBefore = PhraseTable<Int>()
    /// A weekday and a part of its day in one word: "Dienstagmorgen", "Montagnachmittag".
    var weekdayParts = PhraseTable<WeekdayPart>()
    /// Whether an hour in words after a time lead is a time without "heures" ("a las siete": yes; French "a une
    /// fête": no, "à" and "a" fold alike).
    var spelledHoursAfterLeads = false
    /// Whether a part of the day said on its own is the part word alone, without the words before it (Portuguese
    /// "na tarde", "de noite": "tarde", "noite").
    var partOfDayAlone = false
    /// Whether an article before a bare week, month or year names the current one and is left out before a relation
    /// (Dutch "de week", "het jaar"; "de komende week" is "komende week").
    var periodArticleMeansThis = false
    /// Whether "this evening" is a part of today (Spanish "esta tarde": 2016-11-07TEV) or of no day (French "ce soir": TEV).
    var thisPartOfDayIsToday = false
    /// The article that makes a number the day of the month ("le 23", "el 21", "el día 21").
    var dayArticles = PhraseTable<Bool>()
    /// "plus de", "más de" ("more"), "moins de", "menos de" ("less") before an amount of time.
    var durationModifiers = PhraseTable<String>()
    /// Day articles kept in the date they start: German "den 28. Oktober".
    var dateArticles = PhraseTable<Bool>()
    /// Whether those articles are kept only before a day in digits (Dutch "de 9e van mei", but "de tweede van augustus"
    /// is "tweede van augustus").
    var dateArticlesBeforeDigitsOnly = false
    /// Whether a weekday, an article and a day ("vrijdag de 26e") is the nearest such day, after or before today (Dutch);
    /// otherwise the last one ("martes el día 25").
    var articledWeekdayDayIsNearest = false
    /// Words between a time and the date it falls on that the date does not take itself: Dutch "om 14.00 op dinsdag",
    /// "tussen 3 en 5 op 1-1-2015".
    var timeDateJoiners = PhraseTable<Bool>()
    /// Day articles kept before a day of the month said alone: Portuguese "dia 12" (but "no dia 20 de junho" is "20
    /// de junho").
    var dayAloneArticles = PhraseTable<Bool>()
    /// Articles a date may start with ("le", "el", "la"), kept in the entity only where the specs keep them.
    var articles = PhraseTable<Bool>()
    /// Words between a day and its month or year: "de", "del".
    var dateJoiners = PhraseTable<Bool>()
    /// Words between a date or a month and its year only: Dutch "28 juni in 2020", "van april in 2016".
    var yearJoiners = PhraseTable<Bool>()
    /// The word the spec keeps before a weekday of a week named from this one, and that may stand between them: Dutch
    /// "op volgende week maandag", "op dinsdag van volgende week", "volgende week op dinsdag" (but "op vrijdag" is
    /// "vrijdag").
    var weekDateLeads = PhraseTable<Bool>()
    /// Whether a day the calendar does not have ("30 feb", "29/2/2019") is read, not resolved, as the Dutch spec reads
    /// it (the other specs leave it out).
    var impossibleDatesUnresolved = false
    /// "de week van", "de week beginnend op" before a date: the week that holds it.
    var weekOf = PhraseTable<Bool>()
    /// Before a part of the day, its first half (Mod start: "vroeg in de ochtend", 08:00 to 10:00) or its second (Mod
    /// end: "later in de middag", 14:00 to 16:00; "later deze middag" is today's).
    var partOfDayHalves = PhraseTable<String>()
    /// Years that are no calendar years, and their TIMEX prefix: "schooljaar" SY, "fiscaal jaar" FY (not resolved).
    var specialYears = PhraseTable<String>()
    /// Words after an amount of time that count it from a date, beyond the modifiers ("3 dagen vanaf vandaag"), where
    /// before a date alone they are no modifier ("vanaf oktober" is "oktober").
    var durationAnchors = PhraseTable<Bool>()
    /// Whether an hour in words is one word (Dutch glues its compounds: "tussen vijf en zeven" is two hours, where French
    /// "vingt et un heures" is 21:00).
    var spelledHourIsOneWord = false
    /// Whether a day of the month alone may be an ordinal in digits ("de 15e"; French "le 1er" stays the ordinal).
    var ordinalDaysAlone = false
    /// Whether quarters and the week of a date take no modifier before them (Dutch "voor dit kwartaal" is "for this
    /// quarter").
    var quartersTakeNoModifier = false
    /// Whether a meal is a part of the day only after its article ("na het ontbijt"; "lunch eten" is none).
    var mealsNeedArticle = false
    /// Ordinal centuries: "15e eeuw" (1400 to 1500).
    var centuries = PhraseTable<Bool>()
    /// "tot nu toe", "tot op heden": up to now (PRESENT_REF, Mod before).
    var untilNow = PhraseTable<Bool>()
    /// A range's first word ("de", "du", "desde", "entre") and the word between its ends ("à", "au", "a", "al",
    /// "hasta", and after "entre" only: "et", "y").
    var rangeStarts = PhraseTable<Bool>()
    var rangeJoiners = PhraseTable<Bool>()
    var betweenWords = PhraseTable<Bool>()
    var betweenJoiners = PhraseTable<Bool>()
    /// "dans", "dentro de", "en": a moment that far from now.
    var inFuture = PhraseTable<Bool>()
    /// "il y a", "hace": a moment that far back.
    var ago = PhraseTable<Bool>()
    /// "atrás" after an amount of time: that far back ("dois meses atrás").
    var agoAfter = PhraseTable<Bool>()
    /// "chaque", "tous les", "cada", "todos los": a repetition.
    var each = PhraseTable<Bool>()
    /// One-word repetitions: "hebdomadaire" P1W, "diariamente" P1D.
    var repeatAdverbs = PhraseTable<String>()
    /// "quelques", "unos": the number LUIS gives a few (3).
    var few = PhraseTable<Bool>()
    /// "een paar", "paar": the number LUIS gives a couple (2).
    var couple = PhraseTable<Bool>()
    /// An article that is one of a unit ("een uur", "een week"), where the number words leave it alone as the article.
    var articleOne = PhraseTable<Bool>()
    /// A whole unit: "toute la journée", "todo el día" (P1D).
    var whole = PhraseTable<Bool>()
    /// Seasons and their TIMEX code.
    var seasons = PhraseTable<String>()
    /// "avant", "après", "depuis", "antes de", "después de", "desde": what they make of the date after them.
    var modifiers = PhraseTable<DateTimeModifier>()
    /// "les années", "los años" before a decade ("los años 90", "les années quatre-vingt-dix"); "la décennie de",
    /// "la década de" before its first year ("década de 1990").
    var decadesOf = PhraseTable<Bool>()
    var decadeOfYear = PhraseTable<Bool>()
    /// "trimestre": a quarter of the year.
    var quarters = PhraseTable<Bool>()
    /// "principios de" (start), "mediados de" (mid), "finales de" (end): a part of a year, month or week.
    var periodParts = PhraseTable<String>()
    /// "primera" (true) and "última" (false) before a week or a month of a year, or a few of a year's units.
    var firstOrLast = PhraseTable<Bool>()
    /// The words for the week, month and year ("semaine", "mois", "année", "semana", "mes", "año").
    var periods = PhraseTable<DateTimeWords.Unit>()
    /// Holidays by name ("Ostermontag", "Tag der Arbeit", "Heiligabend"), each the rule that gives its day in a year.
    var holidays = PhraseTable<Holiday>()
    /// Words between a holiday and its year ("im Jahr 2020", "im nächsten Jahr").
    var holidayYearLeads = PhraseTable<Bool>()
    /// Words between an amount of minutes and the hour they come before: Italian "(mancano) 5 minuti alle 4" (3:55).
    var minutesBeforeHour = PhraseTable<Bool>()
    /// This week's weekend ("am Wochenende").
    var weekend = PhraseTable<Bool>()
    /// This week's working days ("unter der Woche").
    var workingWeek = PhraseTable<Bool>()
}

/// A part of a day said with its day: "anoche" is yesterday's night.
struct DayPart: Sendable {
    var days: Int
    var part: DateTimeWords.PartOfDay
}

/// A weekday said with a part of its day: "Dienstagmorgen" is Tuesday's morning.
struct WeekdayPart: Sendable {
    var weekday: Int
    var part: DateTimeWords.PartOfDay
}

/// Phrases of a few tokens and their values, looked up at a token by the longest phrase that starts there.
/// Stored as a tree of folded tokens, so a look-up reads each token once and builds no string: every table is asked
/// at every token of a text. A node's children are sorted by their token's ``PhraseKey`` hash, which the text
/// computed once per token, so a step is a binary search over integers (hashing the token's string in a dictionary
/// at every step of every table was a third of the Dutch date-time time).
struct PhraseTable<Value: Sendable>: Sendable {
    private struct Node: Sendable {
        var value: Value?
        /// Sorted by `key.hash`.
        var children: [(key: PhraseKey, node: Int)] = []
    }
    /// The root is node 0.
    private var nodes = [Node()]

    /// Adds `phrases`, each worth `value` (phrases are tokenized and folded as texts are).
    mutating func add(_ phrases: [String], _ value: Value) {
        for phrase in phrases {
            let key = PhraseTable.tokens(of: phrase)
            guard !key.isEmpty else { continue }
            var node = 0
            for token in key.map(PhraseKey.init) {
                if let next = child(of: node, token) {
                    node = next
                } else {
                    nodes.append(Node())
                    let insertion = nodes[node].children.partitioningIndex(where: { $0.key.hash > token.hash })
                    nodes[node].children.insert((token, nodes.count - 1), at: insertion)
                    node = nodes.count - 1
                }
            }
            nodes[node].value = value
        }
    }

    /// The child of `node` reached by `key`.
    private func child(of node: Int, _ key: PhraseKey) -> Int? {
        // Run at every step of every table at every token: over the buffer, without bounds checks or a copy.
        nodes[node].children.withUnsafeBufferPointer { children in
            var index = children.partitioningIndex { $0.key.hash >= key.hash }
            while index < children.count, children[index].key.hash == key.hash {
                if children[index].key.text == key.text { return children[index].node }
                index += 1
            }
            return nil
        }
    }

    /// The value of the longest phrase starting at token `index`, and the index after it.
    func match(_ text: DateTimeText, at index: Int) -> (Value, Int)? {
        var node = 0
        var found: (Value, Int)?
        var position = index
        while let token = text.key(position), let next = child(of: node, token) {
            position += 1
            if let value = nodes[next].value { found = (value, position) }
            node = next
        }
        return found
    }

    /// Whether a phrase starts at `index`; the index after the longest one.
    func end(_ text: DateTimeText, at index: Int) -> Int? { match(text, at: index)?.1 }

    static func tokens(of phrase: String) -> [String] {
        let tokens = TokenizedText(phrase)
        return (0..<tokens.count).map { DateTimeText.fold(tokens[$0].text) }
    }
}

/// A folded token and a hash of it (FNV-1a over its UTF-8), computed once: what ``PhraseTable`` looks up.
struct PhraseKey: Sendable {
    let text: String
    let hash: UInt64

    init(_ text: String) {
        self.text = text
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        self.hash = hash
    }
}

/// A text as the lexicon date-time rules read it: its tokens, and each token folded once.
struct DateTimeText {
    let tokens: TokenizedText
    private let keys: [PhraseKey]

    init(_ tokens: TokenizedText) {
        self.tokens = tokens
        keys = tokens.tokens.map { PhraseKey(DateTimeText.fold($0.text)) }
    }

    var count: Int { tokens.count }

    func folded(_ index: Int) -> String? { index >= 0 && index < keys.count ? keys[index].text : nil }

    /// The folded token at `index` as phrase tables look it up.
    func key(_ index: Int) -> PhraseKey? { index >= 0 && index < keys.count ? keys[index] : nil }

    /// The folded word at `index` (nil for digits and symbols).
    func word(_ index: Int) -> String? { tokens.word(index) == nil ? nil : keys[index].text }

    func isSymbol(_ index: Int, _ symbol: String) -> Bool { tokens.token(index)?.isSymbol(symbol) == true }

    /// Digits at `index` (at most `maxDigits` of them), as a number.
    func digits(_ index: Int, maxDigits: Int = 4) -> Int? {
        guard let token = tokens.token(index), token.isDigits, token.text.count <= maxDigits else { return nil }
        return Int(token.text)
    }

    /// Whether token `index` follows the one before it without a space.
    func touches(_ index: Int) -> Bool { tokens.touchesPrevious(index) }

    /// Lower case without accents, with the typographic apostrophes ("’", and "‘" as Dutch "‘s morgens" is sometimes
    /// typed) as "'".
    static func fold(_ word: String) -> String {
        let folded = NumberLexicon.fold(word)
        // Scalar by scalar: this runs for every token, and Foundation's `contains` on strings is a
        // locale-aware search many times slower.
        guard folded.unicodeScalars.contains(where: isTypographicApostrophe) else { return folded }
        var straight = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars { straight.append(isTypographicApostrophe(scalar) ? "'" : scalar) }
        return String(straight)
    }

    private static func isTypographicApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{2019}" || scalar == "\u{2018}"
    }
}

extension DateTimeLexicon {
    /// The parts of the day, with the hours LUIS gives them (as English's ``DateTimeWords/partsOfDay``).
    static let morning = DateTimeWords.PartOfDay(code: "MO", start: (8, 0, 0), end: (12, 0, 0), afternoon: false)
    static let afternoon = DateTimeWords.PartOfDay(code: "AF", start: (12, 0, 0), end: (16, 0, 0), afternoon: true)
    static let evening = DateTimeWords.PartOfDay(code: "EV", start: (16, 0, 0), end: (20, 0, 0), afternoon: true)
    static let night = DateTimeWords.PartOfDay(code: "NI", start: (20, 0, 0), end: (23, 59, 59), afternoon: true)
    static let dawn = DateTimeWords.PartOfDay(code: "DA", start: (4, 0, 0), end: (8, 0, 0), afternoon: false)
    static let breakfast = DateTimeWords.PartOfDay(code: "MEB", start: (8, 0, 0), end: (12, 0, 0), afternoon: false, isMeal: true)
    static let lunch = DateTimeWords.PartOfDay(code: "MEL", start: (11, 0, 0), end: (13, 0, 0), afternoon: false, isMeal: true)
    static let dinner = DateTimeWords.PartOfDay(code: "MED", start: (16, 0, 0), end: (20, 0, 0), afternoon: true, isMeal: true)

    static let week = DateTimeWords.Unit(letter: "W", isTime: false, seconds: 604_800)
    static let month = DateTimeWords.Unit(letter: "M", isTime: false, seconds: 2_592_000)
    static let year = DateTimeWords.Unit(letter: "Y", isTime: false, seconds: 31_536_000)
    /// Weekends counted: "drie weekenden" is P3WE, two days each.
    static let weekend = DateTimeWords.Unit(letter: "WE", isTime: false, seconds: 172_800)

    /// A language's unit words, each worth what English's ``DateTimeWords/units`` gives its unit.
    static func units(years: [String], months: [String], weeks: [String], days: [String], hours: [String], minutes: [String],
                      seconds: [String], decades: [String], centuries: [String]) -> PhraseTable<DateTimeWords.Unit> {
        var table = PhraseTable<DateTimeWords.Unit>()
        table.add(centuries, DateTimeWords.Unit(letter: "Y", isTime: false, seconds: 31_536_000 * 100, multiple: 100))
        table.add(decades, DateTimeWords.Unit(letter: "Y", isTime: false, seconds: 31_536_000 * 10, multiple: 10))
        table.add(years, year)
        table.add(months, month)
        table.add(weeks, week)
        table.add(days, DateTimeWords.Unit(letter: "D", isTime: false, seconds: 86_400))
        table.add(hours, DateTimeWords.Unit(letter: "H", isTime: true, seconds: 3_600))
        table.add(minutes, DateTimeWords.Unit(letter: "M", isTime: true, seconds: 60))
        table.add(seconds, DateTimeWords.Unit(letter: "S", isTime: true, seconds: 1))
        return table
    }
}
