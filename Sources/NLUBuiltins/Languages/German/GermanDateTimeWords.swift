/// German date-time words (Recognizers-Text's German DateTimeModel spec, read for its meaning): "2. Oktober",
/// "22.04.", "nächsten Freitag", "morgen um 18 Uhr", "halb 8", "Viertel nach 8 Abends", "von 17 bis 18 Uhr",
/// "in 5 Minuten", "vor 3 Wochen", "nächstes Jahr", "Dienstagmorgen", "jeden Mittwoch um 16 Uhr".
enum GermanDateTimeWords {
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
        return words
    }()
}
