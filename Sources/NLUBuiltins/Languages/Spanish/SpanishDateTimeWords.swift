/// Spanish date-time words (Recognizers-Text's Spanish DateTimeModel spec, read for its meaning): "el 3 de marzo",
/// "mañana a las 3 de la tarde", "pasado mañana", "el próximo lunes", "dentro de 3 días", "hace 2 semanas",
/// "del 3 al 5 de marzo", "la semana que viene", "los últimos 3 meses", "cada dos semanas".
enum SpanishDateTimeWords {
    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        for (month, names) in [["enero"], ["febrero"], ["marzo"], ["abril"], ["mayo"], ["junio"], ["julio"], ["agosto"],
                               ["septiembre", "setiembre"], ["octubre"], ["noviembre"], ["diciembre"]].enumerated() {
            words.months.add(names, month + 1)
        }
        for (month, names) in [["ene"], ["feb"], ["mar"], ["abr"], ["may"], ["jun"], ["jul"], ["ago"], ["sept", "sep", "set"], ["oct"],
                               ["nov"], ["dic"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        for (day, names) in [["lunes"], ["martes"], ["miércoles"], ["jueves"], ["viernes"], ["sábado", "sabado"], ["domingo"]].enumerated() {
            words.weekdays.add(names, day + 1)
        }
        for (day, names) in [["lu", "lun"], ["ma", "mar"], ["mi", "mie", "miérc", "mier"], ["ju", "jue", "juev"], ["vi", "vie", "vier"],
                             ["sa", "sab", "sáb"], ["do", "dom"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["hoy", "el día de hoy", "este día"], 0)
        words.relativeDays.add(["mañana", "el día de mañana"], 1)
        words.relativeDays.add(["pasado mañana", "pasado manana"], 2)
        words.relativeDays.add(["ayer"], -1)
        words.relativeDays.add(["anteayer", "antier", "antes de ayer", "antes de anoche"], -2)
        words.partsOfDay.add(["mañana"], DateTimeLexicon.morning)
        words.partsOfDay.add(["madrugada"], DateTimeLexicon.dawn)
        words.partsOfDay.add(["desayuno", "hora del desayuno", "hora de desayuno"], DateTimeLexicon.breakfast)
        words.partsOfDay.add(["almuerzo", "hora del almuerzo", "hora de almuerzo", "comida"], DateTimeLexicon.lunch)
        words.partsOfDay.add(["cena", "hora de la cena", "hora de cena"], DateTimeLexicon.dinner)
        // The spec reads "la tarde" as the evening (TEV) and "mediodía" as the afternoon.
        words.partsOfDay.add(["tarde"], DateTimeLexicon.evening)
        words.partsOfDay.add(["mediodía", "mediodia"], DateTimeLexicon.afternoon)
        words.partsOfDay.add(["noche"], DateTimeLexicon.night)
        words.partOfDayLeads.add(["por la", "en la", "a la", "la", "de la", "durante la", "del", "el", "al", "de"], true)
        words.timeSuffixes.add(["de la mañana", "por la mañana", "en la mañana", "de la madrugada"], DateTimeLexicon.morning)
        words.timeSuffixes.add(["de la tarde", "por la tarde", "en la tarde"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["de la noche", "por la noche", "en la noche"], DateTimeLexicon.night)
        words.units = DateTimeLexicon.units(years: ["año", "años", "ano", "anos"], months: ["mes", "meses"], weeks: ["semana", "semanas"],
                                            days: ["día", "días", "dia", "dias", "noche", "noches"], hours: ["hora", "horas", "h", "hr", "hrs"],
                                            minutes: ["minuto", "minutos", "min", "mins"], seconds: ["segundo", "segundos", "seg", "s"],
                                            decades: ["década", "décadas"], centuries: ["siglo", "siglos"])
        words.periods.add(["semana"], DateTimeLexicon.week)
        words.periods.add(["mes"], DateTimeLexicon.month)
        words.periods.add(["año"], DateTimeLexicon.year)
        words.quarters.add(["trimestre"], true)
        words.firstOrLast.add(["primer", "primera", "primeros", "primeras"], true)
        words.firstOrLast.add(["último", "última", "últimos", "últimas"], false)
        words.decadesOf.add(["los años", "los anos"], true)
        words.decadeOfYear.add(["década de", "decada de"], true)
        // The spec leaves "a" / "al" before them out of the entity ("a finales de año": "finales de año").
        words.periodParts.add(["principios de", "inicios de", "inicio de", "comienzos de", "primeros de"], "start")
        words.periodParts.add(["mediados de", "medianos de"], "mid")
        words.periodParts.add(["finales de", "fines de", "fin de", "final de", "últimos de"], "end")
        // "una hora y media" is an amount of time: Spanish says a clock time without "horas" ("a las 3 y media").
        words.hourWords.add(["h", "en punto"], true)
        words.spelledHoursAfterLeads = true
        words.thisPartOfDayIsToday = true
        words.dayArticles.add(["el", "el día", "del"], true)
        words.durationModifiers.add(["más de"], "more")
        words.durationModifiers.add(["menos de"], "less")
        words.minuteWords.add(["minuto", "minutos", "min"], true)
        words.timeLeads.add(["a las", "a la", "las", "sobre las", "hacia las", "eran las", "son las", "es la"], true)
        words.minuteFractions.add(["y media", "y medio"], 30)
        words.minuteFractions.add(["y cuarto"], 15)
        words.minuteFractions.add(["menos cuarto", "menos un cuarto"], -15)
        words.minus.add(["menos"], true)
        words.plus.add(["y"], true)
        words.namedHours.add(["mediodía", "mediodia"], 12)
        words.namedHours.add(["medianoche"], 0)
        words.now.add(["ahora", "ahora mismo", "en este momento", "justo ahora", "en este preciso momento"], true)
        words.soonest.add(["lo antes posible", "lo más pronto posible", "cuanto antes"], true)
        words.endOf.add(["final de", "fin de", "al final de", "al final del", "al fin de", "final del", "fin del", "el fin de"], true)
        words.theDay.add(["día", "dia"], true)
        words.orLater.add(["o más tarde", "y más tarde", "o después", "y después", "o posterior", "y posterior"], true)
        words.laterOrEarlier.add(["más tarde", "mas tarde", "más tarde en", "más tarde de", "mas tarde en", "mas tarde de"], true)
        words.laterOrEarlier.add(["más temprano", "mas temprano", "más temprano en", "más temprano de", "mas temprano en", "mas temprano de"], false)
        words.later.add(["después", "despues"], true)
        words.dayParts.add(["anoche"], DayPart(days: -1, part: DateTimeLexicon.night))
        words.within.add(["dentro de", "dentro de las próximas", "dentro de los próximos"], true)
        words.this.add(["este", "esta", "estos", "estas"], true)
        words.relativeBefore.add(["próximo", "próxima", "próximos", "próximas", "siguiente", "siguientes"], 1)
        words.relativeBefore.add(["último", "última", "últimos", "últimas", "pasado", "pasada", "pasados", "pasadas"], -1)
        words.relativeAfter.add(["próximo", "próxima", "próximos", "próximas", "que viene", "siguiente", "siguientes", "entrante"], 1)
        words.relativeAfter.add(["actual", "en curso"], 0)
        words.relativeAfter.add(["pasado", "pasada", "pasados", "pasadas", "anterior", "anteriores", "último", "última", "últimos", "últimas"], -1)
        words.articles.add(["el", "la", "los", "las"], true)
        words.dateJoiners.add(["de", "del"], true)
        words.rangeStarts.add(["de", "del", "desde", "desde el", "a partir del", "de las", "desde las", "de la", "desde la"], true)
        words.rangeJoiners.add(["a", "al", "hasta", "hasta el", "a las", "hasta las", "a la", "hasta la", "-", "~", "hacia"], true)
        words.betweenWords.add(["entre", "entre el", "entre las"], true)
        words.betweenJoiners.add(["y", "y el", "y las"], true)
        words.inFuture.add(["en"], true)
        words.ago.add(["hace"], true)
        words.each.add(["cada", "todos los", "todas las"], true)
        words.repeatAdverbs.add(["diario", "diaria", "diariamente"], "P1D")
        words.repeatAdverbs.add(["semanal", "semanalmente"], "P1W")
        words.repeatAdverbs.add(["quincenal", "quincenalmente"], "P2W")
        words.repeatAdverbs.add(["mensual", "mensualmente"], "P1M")
        words.repeatAdverbs.add(["anual", "anualmente"], "P1Y")
        words.repeatAdverbs.add(["semestral", "semestralmente"], "P0.5Y")
        words.repeatAdverbs.add(["trimestral", "trimestralmente"], "P3M")
        words.repeatAdverbs.add(["una vez al día", "una vez por día"], "P1D")
        words.repeatAdverbs.add(["una vez a la semana", "una vez por semana"], "P1W")
        words.repeatAdverbs.add(["una vez al mes", "una vez por mes"], "P1M")
        words.repeatAdverbs.add(["una vez al año", "una vez por año"], "P1Y")
        words.few.add(["unos", "unas", "algunos", "algunas", "unos cuantos", "unas cuantas", "varios", "varias"], true)
        words.whole.add(["todo el", "toda la"], true)
        words.seasons.add(["verano"], "SU")
        words.seasons.add(["invierno"], "WI")
        words.seasons.add(["primavera"], "SP")
        words.seasons.add(["otoño"], "FA")
        words.modifiers.add(["antes de", "antes del", "antes de las", "no más tarde de", "no más tarde que", "no más tarde que el"], .before)
        words.modifiers.add(["después de", "después del", "después de las", "más tarde de"], .after)
        words.modifiers.add(["desde", "desde el", "a partir de", "a partir del"], .since)
        // The spec reads "hasta 2010" as before its start; "tan tarde como" is until its end.
        words.modifiers.add(["hasta", "hasta el"], .before)
        words.modifiers.add(["tan tarde como"], .until)
        words.modifiers.add(["alrededor de", "alrededor de las", "cerca de", "cerca de las", "sobre las"], .approx)
        // Holidays by name, with a year after them or not ("día de la Tierra 2010", "la semana santa 2018").
        let holidays: [([String], Holiday)] = [
            (["año nuevo", "día de año nuevo"], .fixed(month: 1, day: 1)),
            (["día de reyes", "día de los reyes magos"], .fixed(month: 1, day: 6)),
            (["día de san valentín", "san valentín"], .fixed(month: 2, day: 14)),
            (["día de san patricio", "san patricio"], .fixed(month: 3, day: 17)),
            (["día de la tierra"], .fixed(month: 4, day: 22)),
            (["día del trabajador", "día del trabajo", "día internacional de los trabajadores"], .fixed(month: 5, day: 1)),
            (["día de todos los santos"], .fixed(month: 11, day: 1)),
            (["nochebuena"], .fixed(month: 12, day: 24)),
            (["navidad", "día de navidad"], .fixed(month: 12, day: 25)),
            (["nochevieja"], .fixed(month: 12, day: 31)),
            (["la semana santa", "semana santa", "pascua", "domingo de pascua", "domingo de resurrección"], .easter(days: 0)),
            (["viernes santo"], .easter(days: -2)),
            (["jueves santo"], .easter(days: -3)),
        ]
        for (names, holiday) in holidays { words.holidays.add(names, holiday) }
        words.holidayYearLeads.add(["de", "del"], true)
        return words
    }()
}
