/// German date-time words (Recognizers-Text's German DateTimeModel spec, read for its meaning): "2. Oktober",
/// "22.04.", "nächsten Freitag", "morgen um 18 Uhr", "halb 8", "Viertel nach 8 Abends", "von 17 bis 18 Uhr",
/// "in 5 Minuten", "vor 3 Wochen", "nächstes Jahr", "Dienstagmorgen", "jeden Mittwoch um 16 Uhr", holidays
/// ("Ostermontag", "Heiligabend", "Pfingsten 2022"), "am Wochenende" and "unter der Woche".
enum GermanDateTimeWords {
    /// The holidays the German spec names, by the day they fall on: fixed, Easter's, or the nth weekday of a month.
    private static let holidays: [([String], Holiday)] = [
        (["neujahr", "neujahrstag"], .fixed(month: 1, day: 1)),
        (["heilige drei könige", "heiligen drei könige", "dreikönigstag"], .fixed(month: 1, day: 6)),
        (["valentinstag"], .fixed(month: 2, day: 14)),
        (["tag der arbeit", "maifeiertag"], .fixed(month: 5, day: 1)),
        (["weltkindertag"], .fixed(month: 6, day: 1)),
        (["johannistag"], .fixed(month: 6, day: 24)),
        (["peter und paul"], .fixed(month: 6, day: 29)),
        (["augsburger friedensfest"], .fixed(month: 8, day: 8)),
        (["mariä himmelfahrt"], .fixed(month: 8, day: 15)),
        (["herbstanfang"], .fixed(month: 9, day: 22)),
        (["tag der deutschen einheit"], .fixed(month: 10, day: 3)),
        (["reformationstag"], .fixed(month: 10, day: 31)),
        (["allerheiligen"], .fixed(month: 11, day: 1)),
        (["allerseelen"], .fixed(month: 11, day: 2)),
        (["martinstag"], .fixed(month: 11, day: 11)),
        (["barbaratag"], .fixed(month: 12, day: 4)),
        (["nikolaus", "nikolaustag"], .fixed(month: 12, day: 6)),
        (["heiligabend", "heiliger abend"], .fixed(month: 12, day: 24)),
        (["weihnachten", "weihnachtstag", "weihnachtsfeiertag", "erster weihnachtstag", "ersten weihnachtstag",
          "erster weihnachtsfeiertag", "ersten weihnachtsfeiertag"], .fixed(month: 12, day: 25)),
        (["zweiter weihnachtstag", "zweiten weihnachtstag", "zweiter weihnachtsfeiertag", "zweiten weihnachtsfeiertag",
          "stephanstag"], .fixed(month: 12, day: 26)),
        (["silvester"], .fixed(month: 12, day: 31)),
        (["weiberfastnacht"], .easter(days: -52)),
        (["fastnachtssamstag"], .easter(days: -50)),
        (["fastnachtssonntag"], .easter(days: -49)),
        (["rosenmontag"], .easter(days: -48)),
        (["fastnachtsdienstag", "faschingsdienstag"], .easter(days: -47)),
        (["aschermittwoch"], .easter(days: -46)),
        (["palmsonntag"], .easter(days: -7)),
        (["gründonnerstag"], .easter(days: -3)),
        (["karfreitag"], .easter(days: -2)),
        (["karsamstag"], .easter(days: -1)),
        (["ostern", "ostersonntag"], .easter(days: 0)),
        (["ostermontag"], .easter(days: 1)),
        (["christi himmelfahrt", "himmelfahrt", "vatertag"], .easter(days: 39)),
        (["pfingsten", "pfingstsonntag"], .easter(days: 49)),
        (["pfingstmontag"], .easter(days: 50)),
        (["fronleichnam"], .easter(days: 60)),
        (["muttertag"], .nthWeekday(month: 5, weekday: 7, nth: 2)),
        (["erntedankfest"], .nthWeekday(month: 10, weekday: 7, nth: 1)),
    ]

    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        let monthNames = [["januar", "jänner"], ["februar", "feber"], ["märz"], ["april"], ["mai"], ["juni"], ["juli"], ["august"],
                          ["september"], ["oktober"], ["november"], ["dezember"]]
        for (month, names) in monthNames.enumerated() { words.months.add(names, month + 1) }
        for (month, names) in [["jan"], ["feb"], ["mär", "mrz"], ["apr"], ["mai"], ["jun"], ["jul"], ["aug"], ["sep", "sept"], ["okt"],
                               ["nov"], ["dez"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        let weekdayNames = [["montag"], ["dienstag"], ["mittwoch"], ["donnerstag"], ["freitag"], ["samstag", "sonnabend"], ["sonntag"]]
        for (day, names) in weekdayNames.enumerated() { words.weekdays.add(names, day + 1) }
        for (day, names) in [["mo"], ["di"], ["mi"], ["do"], ["fr"], ["sa"], ["so"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["heute"], 0)
        words.relativeDays.add(["morgen"], 1)
        words.relativeDays.add(["übermorgen"], 2)
        words.relativeDays.add(["gestern"], -1)
        words.relativeDays.add(["vorgestern"], -2)
        let parts: [([String], DateTimeWords.PartOfDay)] = [
            (["morgen", "vormittag", "frühmorgen"], DateTimeLexicon.morning), (["nachmittag", "mittag"], DateTimeLexicon.afternoon),
            (["abend", "spätabend"], DateTimeLexicon.evening), (["nacht"], DateTimeLexicon.night),
        ]
        for (names, part) in parts { words.partsOfDay.add(names, part) }
        words.partOfDayLeads.add(["am", "gegen", "in der", "zur"], true)
        // "9 Uhr morgens", "5 Uhr Nachmittags", "12 Uhr nachts"; the same adverbs start a time ("morgens um 7 Uhr").
        let suffixes: [([String], DateTimeWords.PartOfDay)] = [
            (["morgens", "vormittags", "frühmorgens", "früh"], DateTimeLexicon.morning), (["nachmittags", "mittags"], DateTimeLexicon.afternoon),
            (["abends", "spätabends"], DateTimeLexicon.evening), (["nachts"], DateTimeLexicon.night),
        ]
        for (names, part) in suffixes { words.timeSuffixes.add(names, part) }
        // "Dienstagmorgen", "Montagnachmittag", "Sonnabendabend": a weekday and a part of its day in one word.
        for (day, names) in weekdayNames.enumerated() {
            for name in names {
                for (partNames, part) in parts + suffixes {
                    words.weekdayParts.add(partNames.map { name + $0 } + partNames.map { name + " " + $0 }, WeekdayPart(weekday: day + 1, part: part))
                }
            }
        }
        words.units = DateTimeLexicon.units(years: ["jahr", "jahre", "jahren", "jahres"], months: ["monat", "monate", "monaten"],
                                            weeks: ["woche", "wochen"], days: ["tag", "tage", "tagen", "tg"], hours: ["stunde", "stunden", "std", "h"],
                                            minutes: ["minute", "minuten", "min"], seconds: ["sekunde", "sekunden", "sek", "s"],
                                            decades: ["jahrzehnt", "jahrzehnte"], centuries: ["jahrhundert", "jahrhunderte"])
        words.periods.add(["woche"], DateTimeLexicon.week)
        words.periods.add(["monat", "monats"], DateTimeLexicon.month)
        words.periods.add(["jahr", "jahres"], DateTimeLexicon.year)
        words.quarters.add(["quartal"], true)
        words.firstOrLast.add(["erste", "ersten", "erstes"], true)
        words.firstOrLast.add(["letzte", "letzten", "letztes"], false)
        words.hourWords.add(["uhr"], true)
        words.hourWordIsClock = true
        words.dayDot = true
        words.minuteWords.add(["minute", "minuten", "min"], true)
        words.timeLeads.add(["um", "ab", "gegen"], true)
        words.hourFractionsBefore.add(["halb"], -30)
        words.hourFractionsBefore.add(["viertel nach"], 15)
        words.hourFractionsBefore.add(["viertel vor", "dreiviertel"], -15)
        words.hourFractionsBefore.add(["viertel"], -45)
        words.minus.add(["vor"], true)
        words.plus.add(["und", "nach"], true)
        words.namedHours.add(["mittag", "mittagszeit"], 12)
        words.namedHours.add(["mitternacht", "mitternachts"], 0)
        words.now.add(["jetzt", "gerade", "sofort", "gleich", "momentan", "aktuell", "aktuelle"], true)
        words.soonest.add(["so bald wie möglich", "baldmöglichst", "schnellstmöglich"], true)
        words.within.add(["innerhalb der nächsten", "innerhalb von"], true)
        words.this.add(["dieser", "diese", "dieses", "diesen", "diesem"], true)
        for (value, stems) in [(1, ["nächst", "kommend"]), (-1, ["letzt", "vergangen", "vorig"]), (-2, ["vorletzt"]), (2, ["übernächst"])] {
            words.relativeBefore.add(stems.flatMap { stem in ["e", "er", "es", "en", "em"].map { stem + $0 } }, value)
        }
        words.articles.add(["der", "die", "das", "den", "dem"], true)
        words.dayArticles.add(["den", "der"], true)
        words.dateArticles.add(["den"], true)
        words.thisPartOfDayIsToday = true
        words.rangeStarts.add(["von", "vom", "von dem"], true)
        words.rangeJoiners.add(["bis", "bis zum", "bis zur", "bis den", "-", "–"], true)
        words.betweenWords.add(["zwischen", "zwischen dem", "zwischen den"], true)
        words.betweenJoiners.add(["und", "und dem", "und den"], true)
        words.inFuture.add(["in"], true)
        words.ago.add(["vor"], true)
        words.each.add(["jeden", "jede", "jedes", "alle", "immer"], true)
        words.repeatAdverbs.add(["täglich"], "P1D")
        words.repeatAdverbs.add(["wöchentlich"], "P1W")
        words.repeatAdverbs.add(["monatlich"], "P1M")
        words.repeatAdverbs.add(["jährlich"], "P1Y")
        for (day, names) in weekdayNames.enumerated() {
            // "Montags", "immer Mittwochs": every such day.
            words.repeatAdverbs.add(names.flatMap { [$0 + "s", "immer " + $0 + "s"] }, "XXXX-WXX-" + String(day + 1))
        }
        words.few.add(["einige", "ein paar", "paar", "wenige"], true)
        words.whole.add(["ganzen", "ganze"], true)
        words.seasons.add(["sommer"], "SU")
        words.seasons.add(["winter"], "WI")
        words.seasons.add(["frühling", "frühjahr"], "SP")
        words.seasons.add(["herbst"], "FA")
        words.modifiers.add(["vor", "vor dem", "vor der"], .before)
        words.modifiers.add(["nach", "nach dem", "nach der"], .after)
        words.modifiers.add(["seit", "seit dem", "ab"], .since)
        // The spec reads "bis März 2008" as before its start.
        words.modifiers.add(["bis", "bis zum", "bis zur"], .before)
        words.modifiers.add(["gegen", "um etwa", "etwa um", "ungefähr um"], .approx)
        words.durationModifiers.add(["mehr als", "über"], "more")
        words.durationModifiers.add(["weniger als"], "less")
        words.periodParts.add(["anfang", "anfang des", "anfang der"], "start")
        words.periodParts.add(["mitte", "mitte des", "mitte der"], "mid")
        words.periodParts.add(["ende", "ende des", "ende der"], "end")
        for (names, holiday) in holidays { words.holidays.add(names, holiday) }
        words.holidayYearLeads.add(["im", "im jahr", "in", "in dem jahr"], true)
        words.weekend.add(["wochenende", "am wochenende"], true)
        words.workingWeek.add(["unter der woche"], true)
        return words
    }()
}
