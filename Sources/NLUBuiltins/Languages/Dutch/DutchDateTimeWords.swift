/// Dutch date-time words (Recognizers-Text's Dutch DateTimeModel spec and Dutch-DateTime.yaml, read for their
/// meaning): "4e jan 2019", "de tweede van augustus", "morgen 8:00", "om 15.00", "half acht", "'s middags om 7 uur",
/// "vanavond", "morgenavond", "komende maandagmiddag", "aanstaande vrijdag", "over twee weken", "een paar maanden
/// geleden", "tussen 5 en 6 's middags", "van 2014 tot en met 2018", "elke maandag om 16.00", "later deze week".
enum DutchDateTimeWords {
    /// The holidays the Dutch spec names, by the day they fall on.
    private static let holidays: [([String], Holiday)] = [
        (["nieuwjaar", "nieuwjaarsdag"], .fixed(month: 1, day: 1)),
        (["driekoningen"], .fixed(month: 1, day: 6)),
        (["valentijnsdag"], .fixed(month: 2, day: 14)),
        (["st. patrick's day", "st patrick's day", "sint patricksdag"], .fixed(month: 3, day: 17)),
        (["dag van de aarde"], .fixed(month: 4, day: 22)),
        (["koningsdag"], .kingsDay),
        (["koninginnedag"], .fixed(month: 4, day: 30)),
        (["dag van de arbeid", "feest van de arbeid"], .fixed(month: 5, day: 1)),
        (["dodenherdenking"], .fixed(month: 5, day: 4)),
        (["bevrijdingsdag"], .fixed(month: 5, day: 5)),
        (["juneteenth", "vrijheidsdag", "jubilee day"], .fixed(month: 6, day: 19)),
        (["keti koti", "ketikoti"], .fixed(month: 7, day: 1)),
        (["onafhankelijkheidsdag", "onafhankelijksdag"], .fixed(month: 7, day: 4)),
        (["halloween"], .fixed(month: 10, day: 31)),
        (["allerheiligen"], .fixed(month: 11, day: 1)),
        (["allerzielen"], .fixed(month: 11, day: 2)),
        (["sint-maarten", "sint maarten"], .fixed(month: 11, day: 11)),
        (["sinterklaas", "sinterklaasavond", "pakjesavond"], .fixed(month: 12, day: 5)),
        (["kerstavond"], .fixed(month: 12, day: 24)),
        (["kerst", "kerstmis", "kerstfeest", "eerste kerstdag"], .fixed(month: 12, day: 25)),
        (["tweede kerstdag"], .fixed(month: 12, day: 26)),
        (["oudejaarsavond", "oudjaarsavond", "oudjaar", "oudejaar"], .fixed(month: 12, day: 31)),
        (["goede vrijdag"], .easter(days: -2)),
        (["pasen", "eerste paasdag", "paaszondag"], .easter(days: 0)),
        (["tweede paasdag", "paasmaandag"], .easter(days: 1)),
        (["hemelvaartsdag"], .easter(days: 39)),
        (["pinksteren"], .easter(days: 49)),
        (["moederdag"], .nthWeekday(month: 5, weekday: 7, nth: 2)),
        (["vaderdag"], .nthWeekday(month: 6, weekday: 7, nth: 3)),
        (["black friday"], .blackFriday),
    ]

    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        for (month, names) in [["januari"], ["februari"], ["maart"], ["april"], ["mei"], ["juni"], ["juli"], ["augustus"],
                               ["september"], ["oktober"], ["november"], ["december"]].enumerated() {
            words.months.add(names, month + 1)
        }
        for (month, names) in [["jan"], ["feb"], ["mrt", "mar"], ["apr"], ["mei"], ["jun"], ["jul"], ["aug"], ["sep", "sept"], ["okt", "oct"],
                               ["nov"], ["dec"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        let weekdayNames = [["maandag"], ["dinsdag"], ["woensdag"], ["donderdag"], ["vrijdag"], ["zaterdag"], ["zondag"]]
        for (day, names) in weekdayNames.enumerated() { words.weekdays.add(names, day + 1) }
        // "zo" and "ma" are also words: a short weekday is one only before its date or with its period ("zat.").
        for (day, names) in [["ma"], ["di", "dins", "dinsd"], ["wo", "woe", "woens"], ["do"], ["vr"], ["za", "zat"], ["zo", "zon"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["vandaag", "deze dag"], 0)
        words.relativeDays.add(["morgen"], 1)
        words.relativeDays.add(["overmorgen"], 2)
        words.relativeDays.add(["gisteren"], -1)
        words.relativeDays.add(["eergisteren"], -2)
        // "'s morgens", "'s middags": the genitive adverbs, read as the part word after the lead "'s".
        let parts: [([String], DateTimeWords.PartOfDay)] = [
            (["ochtend", "morgens", "ochtends"], DateTimeLexicon.morning), (["middag", "middags"], DateTimeLexicon.afternoon),
            (["avond", "avonds"], DateTimeLexicon.evening), (["nacht", "nachts"], DateTimeLexicon.night),
        ]
        for (names, part) in parts { words.partsOfDay.add(names, part) }
        words.partsOfDay.add(["ontbijt"], DateTimeLexicon.breakfast)
        words.partsOfDay.add(["lunch", "lunchtijd"], DateTimeLexicon.lunch)
        words.partsOfDay.add(["avondeten", "diner"], DateTimeLexicon.dinner)
        words.partOfDayLeads.add(["'s", "in de", "het", "de"], true)
        // "3 uur 's nachts" is 03:00 and "12 uur 's nachts" midnight: the small hours, read as the morning's half of the day.
        words.timeSuffixes.add(["'s morgens", "'s ochtends", "in de ochtend", "'s nachts"], DateTimeLexicon.morning)
        words.timeSuffixes.add(["'s middags", "in de middag"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["'s avonds", "in de avond"], DateTimeLexicon.evening)
        // "vanavond", "morgenavond", "gisterennacht": a day named from today and a part of it in one word.
        for (days, dayNames) in [(0, ["van"]), (1, ["morgen"]), (-1, ["gisteren"])] {
            for dayName in dayNames {
                for (partNames, part) in [(["ochtend", "morgen"], DateTimeLexicon.morning), (["middag"], DateTimeLexicon.afternoon),
                                          (["avond"], DateTimeLexicon.evening), (["nacht"], DateTimeLexicon.night)] {
                    words.dayParts.add(partNames.map { dayName + $0 }, DayPart(days: days, part: part))
                }
            }
        }
        words.dayParts.add(["afgelopen nacht"], DayPart(days: -1, part: DateTimeLexicon.night))
        // "maandagmiddag", "dinsdagochtend".
        for (day, names) in weekdayNames.enumerated() {
            for name in names {
                for (partNames, part) in parts {
                    words.weekdayParts.add(partNames.map { name + $0 } + partNames.map { name + " " + $0 }, WeekdayPart(weekday: day + 1, part: part))
                }
                words.weekdayParts.add([name + "morgen"], WeekdayPart(weekday: day + 1, part: DateTimeLexicon.morning))
            }
        }
        words.units = DateTimeLexicon.units(years: ["jaar", "jaren", "jr"], months: ["maand", "maanden", "mnd"], weeks: ["week", "weken"],
                                            days: ["dag", "dagen", "dgn", "nacht", "nachten"], hours: ["uur", "uren", "u"],
                                            minutes: ["minuut", "minuten", "min"], seconds: ["seconde", "seconden", "secondes", "sec", "secs"],
                                            decades: ["decennium", "decennia"], centuries: ["eeuw", "eeuwen"])
        words.units.add(["weekenden"], DateTimeLexicon.weekend)
        words.periods.add(["week"], DateTimeLexicon.week)
        words.periods.add(["maand"], DateTimeLexicon.month)
        words.periods.add(["jaar", "kalenderjaar"], DateTimeLexicon.year)
        words.quarters.add(["kwartaal"], true)
        words.firstOrLast.add(["eerste"], true)
        words.firstOrLast.add(["laatste"], false)
        // "uur" is a clock hour from 2 to 23 ("10 uur", "om 7 uur"); "1 uur" and "vierentwintig uur" are amounts.
        words.hourWords.add(["uur", "u"], true)
        words.hourWordIsClock = true
        words.hourWordClockHours = 2...23
        words.dotClockTimes = true
        words.notTimes.add(["procent", "%"], true)
        words.dotTimeLeads.add(["om"], true)
        words.spelledHoursAfterLeads = true
        words.thisPartOfDayIsToday = true
        words.minuteWords.add(["minuut", "minuten", "min"], true)
        // "tegen 2 uur" is before two: a modifier, not a lead.
        words.timeLeads.add(["om", "rond", "omstreeks"], true)
        words.hourFractionsBefore.add(["half"], -30)
        words.hourFractionsBefore.add(["kwart over"], 15)
        words.hourFractionsBefore.add(["kwart voor"], -15)
        words.namedHours.add(["middaguur", "het middaguur"], 12)
        words.namedHours.add(["middernacht"], 0)
        words.now.add(["nu", "nu meteen", "op dit moment", "op het moment", "momenteel"], true)
        words.soonest.add(["zo snel mogelijk", "zo spoedig mogelijk", "zsm"], true)
        words.endOf.add(["eind van", "einde van", "eind van de", "einde van de", "aan het eind van", "aan het einde van", "aan het eind van de",
                         "aan het einde van de", "het einde van", "het eind van"], true)
        words.theDay.add(["dag"], true)
        words.orLater.add(["of later", "en later", "of daarna", "en daarna", "en hoger", "of hoger"], true)
        words.laterOrEarlier.add(["later", "later in"], true)
        words.laterOrEarlier.add(["eerder", "eerder in"], false)
        words.later.add(["later"], true)
        words.within.add(["binnen", "binnen de komende", "binnen de volgende"], true)
        words.this.add(["deze", "dit", "huidige", "huidig"], true)
        words.relativeBefore.add(["volgende", "volgend", "komende", "aankomende", "eerstvolgende", "eropvolgende"], 1)
        words.relativeBefore.add(["vorige", "vorig", "afgelopen", "voorgaande", "voorafgaande", "laatste"], -1)
        words.relativeAfter.add(["komende", "aankomende"], 1)
        words.nearest.add(["aanstaande"], 1)
        words.nearest.add(["afgelopen"], -1)
        words.articles.add(["de", "het"], true)
        words.periodArticleMeansThis = true
        words.dayArticles.add(["de"], true)
        words.dateArticles.add(["de"], true)
        words.dayAloneArticles.add(["de"], true)
        words.dateArticlesBeforeDigitsOnly = true
        words.articledWeekdayDayIsNearest = true
        words.timeDateJoiners.add(["op"], true)
        words.dateJoiners.add(["van"], true)
        words.yearJoiners.add(["in"], true)
        words.weekDateLeads.add(["op"], true)
        words.centuries.add(["eeuw"], true)
        words.untilNow.add(["tot nu toe", "tot op heden"], true)
        words.impossibleDatesUnresolved = true
        words.ordinalDaysAlone = true
        words.spelledHourIsOneWord = true
        words.quartersTakeNoModifier = true
        words.mealsNeedArticle = true
        words.partOfDayHalves.add(["vroeg in de", "in de vroege", "vroeg"], "start")
        words.partOfDayHalves.add(["later in de", "laat in de", "later"], "end")
        words.specialYears.add(["schooljaar"], "SY")
        words.specialYears.add(["fiscaal jaar", "fiscale jaar", "boekjaar"], "FY")
        words.weekOf.add(["de week van", "de week beginnend", "de week beginnend op", "de week startend", "de week startend op",
                          "de week aanvangend", "de week aanvangend op"], true)
        words.rangeStarts.add(["van", "vanaf"], true)
        words.rangeJoiners.add(["tot", "tot en met", "t/m", "-", "–", "~"], true)
        words.betweenWords.add(["tussen"], true)
        words.betweenJoiners.add(["en"], true)
        words.inFuture.add(["over", "in"], true)
        words.agoAfter.add(["geleden"], true)
        words.each.add(["elke", "elk", "ieder", "iedere", "alle"], true)
        words.repeatAdverbs.add(["dagelijks", "dagelijkse", "elke weekdag"], "P1D")
        words.repeatAdverbs.add(["wekelijks", "wekelijkse", "eenmaal per week", "eens per week"], "P1W")
        words.repeatAdverbs.add(["tweewekelijks", "tweewekelijkse"], "P2W")
        words.repeatAdverbs.add(["maandelijks", "maandelijkse", "eenmaal per maand", "eens per maand"], "P1M")
        words.repeatAdverbs.add(["tweemaandelijks", "tweemaandelijkse"], "P2M")
        words.repeatAdverbs.add(["driemaandelijks", "driemaandelijkse"], "P3M")
        words.repeatAdverbs.add(["halfjaarlijks", "halfjaarlijkse"], "P0.5Y")
        words.repeatAdverbs.add(["jaarlijks", "jaarlijkse", "eenmaal per jaar", "eens per jaar"], "P1Y")
        words.repeatAdverbs.add(["weekenden", "welk weekend dan ook", "alle weekenden"], "P1WE")
        words.repeatAdverbs.add(["elk weekend", "ieder weekend"], "XXXX-WXX-WE")
        for (day, names) in weekdayNames.enumerated() {
            // "maandagen": every such day.
            words.repeatAdverbs.add(names.map { $0 + "en" }, "XXXX-WXX-" + String(day + 1))
        }
        words.few.add(["wat", "enige", "enkele", "een aantal"], true)
        words.couple.add(["een paar", "paar"], true)
        words.articleOne.add(["een"], true)
        words.whole.add(["de hele", "het hele", "hele"], true)
        words.seasons.add(["zomer"], "SU")
        words.seasons.add(["winter"], "WI")
        words.seasons.add(["lente", "voorjaar"], "SP")
        words.seasons.add(["herfst", "najaar"], "FA")
        words.modifiers.add(["voor", "vóór", "voor het", "vóór het", "voorafgaand aan", "voorafgaand aan het", "niet later dan", "tegen", "tegen het"],
                            .before)
        words.modifiers.add(["na", "na het", "later dan", "nadat"], .after)
        // "vanaf oktober" is "oktober" in the spec; "3 dagen vanaf vandaag" counts from today.
        words.modifiers.add(["sinds", "sinds het", "startend op", "beginnend", "beginnend op", "startend", "al zo vroeg als", "zo vroeg als"], .since)
        words.durationAnchors.add(["vanaf", "gerekend vanaf"], true)
        words.modifiers.add(["al zo laat als", "zo laat als"], .until)
        words.modifiers.add(["rond", "omstreeks", "rond de", "rond het", "ongeveer"], .approx)
        words.durationModifiers.add(["meer dan", "langer dan"], "more")
        words.durationModifiers.add(["minder dan", "korter dan"], "less")
        words.decadesOf.add(["de jaren", "jaren"], true)
        words.decadeOfYear.add(["jaren", "de jaren"], true)
        words.periodParts.add(["begin", "begin van", "het begin van", "de start van", "start van"], "start")
        words.periodParts.add(["halverwege", "half", "midden", "midden van", "het midden van"], "mid")
        words.periodParts.add(["eind", "einde", "eind van", "einde van", "het eind van", "het einde van", "aan het eind van", "aan het einde van"], "end")
        for (names, holiday) in holidays { words.holidays.add(names, holiday) }
        words.holidayYearLeads.add(["van", "in", "in het jaar"], true)
        words.weekend.add(["weekend", "het weekend"], true)
        words.workingWeek.add(["deze werkweek"], true)
        return words
    }()
}
