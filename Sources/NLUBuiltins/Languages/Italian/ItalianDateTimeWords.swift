/// Italian date-time words (Recognizers-Text's Italian DateTimeModel spec, read for its meaning): "ventinove maggio",
/// "domani alle 8:00am", "stasera", "il prossimo lunedì pomeriggio", "dalle 5 alle 6pm", "tra le 5 e le 6 del
/// pomeriggio", "i prossimi 3 giorni", "2 giorni fa", "ogni lunedì alle 4pm", "le otto e un quarto".
enum ItalianDateTimeWords {
    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        for (month, names) in [["gennaio"], ["febbraio"], ["marzo"], ["aprile"], ["maggio"], ["giugno"], ["luglio"], ["agosto"],
                               ["settembre"], ["ottobre"], ["novembre"], ["dicembre"]].enumerated() {
            words.months.add(names, month + 1)
        }
        for (month, names) in [["gen"], ["feb"], ["mar"], ["apr"], ["mag"], ["giu"], ["lug"], ["ago"], ["set", "sett"], ["ott"],
                               ["nov"], ["dic"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        for (day, names) in [["lunedì"], ["martedì"], ["mercoledì"], ["giovedì"], ["venerdì"], ["sabato"], ["domenica"]].enumerated() {
            words.weekdays.add(names, day + 1)
        }
        for (day, names) in [["lun"], ["mar"], ["mer"], ["gio"], ["ven"], ["sab"], ["dom"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["oggi"], 0)
        words.relativeDays.add(["domani"], 1)
        words.relativeDays.add(["dopodomani", "dopo domani"], 2)
        words.relativeDays.add(["ieri"], -1)
        words.relativeDays.add(["l'altro ieri", "altroieri", "l'altroieri"], -2)
        // The spec keeps "in" and "al" with the part of the day: "in mattinata", "al mattino", "in serata".
        words.partsOfDay.add(["mattina", "mattino", "mattinata", "in mattinata", "al mattino"], DateTimeLexicon.morning)
        words.partsOfDay.add(["pomeriggio"], DateTimeLexicon.afternoon)
        words.partsOfDay.add(["sera", "serata", "in serata"], DateTimeLexicon.evening)
        words.partsOfDay.add(["notte", "nottata"], DateTimeLexicon.night)
        words.partOfDayLeads.add(["la", "il", "di", "del", "nel", "nella", "alla"], true)
        words.timeSuffixes.add(["di mattina", "del mattino", "della mattina", "al mattino", "di mattino"], DateTimeLexicon.morning)
        words.timeSuffixes.add(["del pomeriggio", "di pomeriggio", "nel pomeriggio"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["di sera", "della sera", "la sera"], DateTimeLexicon.evening)
        words.timeSuffixes.add(["di notte", "della notte"], DateTimeLexicon.night)
        // "stasera", "stanotte", "stamattina": this evening, night, morning in one word.
        words.dayParts.add(["stasera"], DayPart(days: 0, part: DateTimeLexicon.evening))
        words.dayParts.add(["stanotte"], DayPart(days: 0, part: DateTimeLexicon.night))
        words.dayParts.add(["stamattina", "stamani", "stamane"], DayPart(days: 0, part: DateTimeLexicon.morning))
        words.units = DateTimeLexicon.units(years: ["anno", "anni"], months: ["mese", "mesi"], weeks: ["settimana", "settimane"],
                                            days: ["giorno", "giorni"], hours: ["ora", "ore", "h"],
                                            minutes: ["minuto", "minuti", "min"], seconds: ["secondo", "secondi", "sec", "s"],
                                            decades: ["decennio", "decenni"], centuries: ["secolo", "secoli"])
        words.periods.add(["settimana"], DateTimeLexicon.week)
        words.periods.add(["mese"], DateTimeLexicon.month)
        words.periods.add(["anno"], DateTimeLexicon.year)
        words.quarters.add(["trimestre"], true)
        words.firstOrLast.add(["primo", "prima", "primi", "prime"], true)
        words.firstOrLast.add(["ultimo", "ultima", "ultimi", "ultime", "l'ultima", "l'ultimo"], false)
        words.spelledHoursAfterLeads = true
        words.thisPartOfDayIsToday = true
        words.partOfDayAlone = true
        words.dayArticles.add(["il", "il giorno"], true)
        words.minuteWords.add(["minuto", "minuti", "min"], true)
        words.timeLeads.add(["alle", "le", "all'", "per le", "verso le", "sono le", "alle ore", "ore"], true)
        words.minuteFractions.add(["e mezza", "e mezzo", "e trenta"], 30)
        words.minuteFractions.add(["e un quarto", "e quarto"], 15)
        words.minuteFractions.add(["e tre quarti"], 45)
        words.minuteFractions.add(["meno un quarto", "meno quarto"], -15)
        words.minutesBeforeHour.add(["alle"], true)
        words.minus.add(["meno"], true)
        words.plus.add(["e"], true)
        words.namedHours.add(["mezzogiorno", "mezzodì"], 12)
        words.namedHours.add(["mezzanotte"], 0)
        words.now.add(["adesso", "proprio ora", "in questo momento"], true)
        words.soonest.add(["il prima possibile", "appena possibile", "quanto prima"], true)
        words.endOf.add(["alla fine di", "fine di", "alla fine del", "alla fine della", "fine del", "fine della"], true)
        words.theDay.add(["giorno"], true)
        words.within.add(["entro", "nei prossimi", "nelle prossime"], true)
        words.this.add(["questo", "questa", "questi", "queste", "quest'"], true)
        words.relativeBefore.add(["prossimo", "prossima", "prossimi", "prossime"], 1)
        words.relativeBefore.add(["scorso", "scorsa", "scorsi", "scorse", "ultimo", "ultima", "ultimi", "ultime", "passato", "passata"], -1)
        words.relativeAfter.add(["prossimo", "prossima", "prossimi", "prossime", "successivo", "successiva", "dopo"], 1)
        words.relativeAfter.add(["scorso", "scorsa", "scorsi", "scorse", "passato", "passata", "precedente"], -1)
        words.articles.add(["il", "lo", "la", "i", "gli", "le", "l'"], true)
        words.dateJoiners.add(["di", "del", "della", "dello"], true)
        words.rangeStarts.add(["dal", "da", "dalle", "dalla", "dall'", "a partire da", "a partire dal"], true)
        words.rangeJoiners.add(["al", "a", "ad", "alle", "alla", "fino al", "fino alle", "fino a", "-", "~"], true)
        words.betweenWords.add(["tra", "fra", "tra il", "tra le", "fra il", "fra le"], true)
        words.betweenJoiners.add(["e", "e il", "e le"], true)
        words.inFuture.add(["tra", "fra", "in"], true)
        words.agoAfter.add(["fa"], true)
        words.later.add(["dopo"], true)
        words.each.add(["ogni", "tutti i", "tutte le"], true)
        words.repeatAdverbs.add(["giornalmente", "quotidianamente", "quotidiano"], "P1D")
        words.repeatAdverbs.add(["settimanalmente", "settimanale"], "P1W")
        words.repeatAdverbs.add(["mensilmente", "mensile"], "P1M")
        words.repeatAdverbs.add(["annualmente", "annuale", "annuo"], "P1Y")
        words.few.add(["qualche", "alcuni", "alcune", "diversi", "diverse", "parecchi", "parecchie"], true)
        words.whole.add(["tutto il", "tutta la"], true)
        words.seasons.add(["estate"], "SU")
        words.seasons.add(["inverno"], "WI")
        words.seasons.add(["primavera"], "SP")
        words.seasons.add(["autunno"], "FA")
        words.modifiers.add(["prima di", "prima del", "prima della", "prima delle"], .before)
        words.modifiers.add(["dopo", "dopo il", "dopo la", "dopo le"], .after)
        words.modifiers.add(["da", "dal", "dalla", "a partire da", "a partire dal"], .since)
        words.modifiers.add(["verso le", "intorno a", "intorno alle"], .approx)
        words.durationModifiers.add(["più di"], "more")
        words.durationModifiers.add(["meno di"], "less")
        words.periodParts.add(["inizio di", "inizio del", "inizio della", "all'inizio di"], "start")
        words.periodParts.add(["metà di", "metà del", "metà della"], "mid")
        words.periodParts.add(["fine di", "fine del", "fine della"], "end")
        words.orLater.add(["o dopo", "o più tardi"], true)
        return words
    }()
}
