/// Portuguese date-time words (Recognizers-Text's Portuguese DateTimeModel spec, read for its meaning): "2 de
/// outubro de 1992", "sexta-feira às 5 da tarde", "de ontem até hoje", "em 2 semanas", "dois meses atrás",
/// "as primeiras 2 semanas de 2021", "semestralmente".
enum PortugueseDateTimeWords {
    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        for (month, names) in [["janeiro"], ["fevereiro"], ["março", "marco"], ["abril"], ["maio"], ["junho"], ["julho"], ["agosto"],
                               ["setembro"], ["outubro"], ["novembro"], ["dezembro"]].enumerated() {
            words.months.add(names, month + 1)
        }
        for (month, names) in [["jan"], ["fev"], ["mar"], ["abr"], ["mai"], ["jun"], ["jul"], ["ago"], ["set"], ["out"], ["nov"], ["dez"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        let weekdays = [["segunda"], ["terça", "terca"], ["quarta"], ["quinta"], ["sexta"], ["sábado", "sabado"], ["domingo"]]
        for (day, names) in weekdays.enumerated() {
            // "terça-feira", "terca feira", "terça": Monday to Friday are "-feira" days.
            let full = day < 5 ? names.flatMap { [$0 + "-feira", $0 + " feira", $0] } : names
            words.weekdays.add(full, day + 1)
        }
        for (day, names) in [["seg", "2a"], ["ter", "3a"], ["qua", "4a"], ["qui", "5a"], ["sex", "6a"], ["sab", "sáb"], ["dom"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["hoje"], 0)
        words.relativeDays.add(["amanhã", "amanha"], 1)
        words.relativeDays.add(["depois de amanhã", "depois de amanha"], 2)
        words.relativeDays.add(["ontem"], -1)
        words.relativeDays.add(["anteontem"], -2)
        words.partsOfDay.add(["manhã", "manha"], DateTimeLexicon.morning)
        words.partsOfDay.add(["madrugada"], DateTimeLexicon.dawn)
        // The spec reads "a tarde" alone as the evening (TEV), as the Spanish spec reads "la tarde".
        words.partsOfDay.add(["tarde"], DateTimeLexicon.evening)
        words.partsOfDay.add(["noite"], DateTimeLexicon.night)
        words.partOfDayLeads.add(["de", "pela", "na", "à", "a", "da", "durante a"], true)
        words.timeSuffixes.add(["da manhã", "da manha", "de manhã", "pela manhã", "da madrugada"], DateTimeLexicon.morning)
        words.timeSuffixes.add(["da tarde", "de tarde", "pela tarde"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["da noite", "de noite", "pela noite"], DateTimeLexicon.night)
        words.units = DateTimeLexicon.units(years: ["ano", "anos"], months: ["mês", "mes", "meses"], weeks: ["semana", "semanas"],
                                            days: ["dia", "dias"], hours: ["hora", "horas", "h", "hr", "hrs"],
                                            minutes: ["minuto", "minutos", "min", "mins"], seconds: ["segundo", "segundos", "seg", "s"],
                                            decades: ["década", "décadas", "decada", "decadas"], centuries: ["século", "séculos"])
        words.periods.add(["semana"], DateTimeLexicon.week)
        words.periods.add(["mês", "mes"], DateTimeLexicon.month)
        words.periods.add(["ano"], DateTimeLexicon.year)
        words.quarters.add(["trimestre"], true)
        words.firstOrLast.add(["primeiro", "primeira", "primeiros", "primeiras"], true)
        words.firstOrLast.add(["último", "última", "últimos", "últimas"], false)
        words.hourWords.add(["h", "em ponto"], true)
        words.spelledHoursAfterLeads = true
        words.thisPartOfDayIsToday = true
        words.partOfDayAlone = true
        words.dayArticles.add(["o", "o dia", "dia"], true)
        words.dayAloneArticles.add(["dia"], true)
        words.minuteWords.add(["minuto", "minutos", "min"], true)
        words.timeLeads.add(["às", "as", "a", "à", "das", "por volta das", "lá pelas"], true)
        words.minuteFractions.add(["e meia", "e meio"], 30)
        words.minuteFractions.add(["e quinze"], 15)
        words.minus.add(["menos"], true)
        words.plus.add(["e"], true)
        words.namedHours.add(["meio-dia", "meio dia", "meiodia"], 12)
        words.namedHours.add(["meia-noite", "meia noite"], 0)
        words.now.add(["agora", "neste momento", "agora mesmo"], true)
        words.soonest.add(["o mais rápido possível", "o quanto antes"], true)
        words.endOf.add(["fim de", "final de", "fim do", "final do"], true)
        words.within.add(["dentro de", "dentro dos próximos", "dentro das próximas"], true)
        words.this.add(["este", "esta", "estes", "estas", "neste", "nesta", "deste", "desta"], true)
        words.relativeBefore.add(["próximo", "próxima", "próximos", "próximas", "proximo", "proxima", "seguinte"], 1)
        words.relativeBefore.add(["último", "última", "últimos", "últimas", "passado", "passada"], -1)
        words.relativeAfter.add(["próximo", "próxima", "próximos", "próximas", "que vem", "seguinte", "seguintes"], 1)
        words.relativeAfter.add(["passado", "passada", "passados", "passadas", "anterior", "último", "última", "últimos", "últimas"], -1)
        words.articles.add(["o", "a", "os", "as"], true)
        words.dateJoiners.add(["de", "do", "da"], true)
        words.rangeStarts.add(["de", "do", "desde", "a partir de", "das", "da"], true)
        words.rangeJoiners.add(["a", "até", "ate", "ateh", "às", "as", "ao", "-", "~"], true)
        words.betweenWords.add(["entre", "entre as", "entre o"], true)
        words.betweenJoiners.add(["e", "e as", "e o"], true)
        // "daqui a duas horas": how Portuguese says "in two hours" (the spec has no case; its port reads nothing).
        words.inFuture.add(["em", "daqui a"], true)
        words.ago.add(["há", "ha"], true)
        words.agoAfter.add(["atrás", "atras"], true)
        words.later.add(["depois"], true)
        words.each.add(["cada", "todos os", "todas as", "toda", "todo"], true)
        words.repeatAdverbs.add(["diário", "diária", "diariamente"], "P1D")
        words.repeatAdverbs.add(["semanal", "semanalmente"], "P1W")
        words.repeatAdverbs.add(["quinzenal", "quinzenalmente"], "P2W")
        words.repeatAdverbs.add(["mensal", "mensalmente"], "P1M")
        words.repeatAdverbs.add(["anual", "anualmente"], "P1Y")
        words.repeatAdverbs.add(["semestral", "semestralmente"], "P0.5Y")
        words.repeatAdverbs.add(["trimestral", "trimestralmente"], "P3M")
        words.few.add(["uns", "umas", "alguns", "algumas", "vários", "várias"], true)
        words.whole.add(["todo o", "toda a"], true)
        words.seasons.add(["verão"], "SU")
        words.seasons.add(["inverno"], "WI")
        words.seasons.add(["primavera"], "SP")
        words.seasons.add(["outono"], "FA")
        words.modifiers.add(["antes de", "antes do", "antes da", "antes das", "antes de as"], .before)
        words.modifiers.add(["depois de", "depois do", "depois da", "depois das"], .after)
        words.modifiers.add(["desde", "a partir de", "a partir do", "a partir da"], .since)
        words.modifiers.add(["até", "ate", "ateh", "até o", "até a", "ate a", "ateh a"], .before)
        words.modifiers.add(["por volta de", "por volta das", "em torno de", "cerca de"], .approx)
        words.durationModifiers.add(["mais de"], "more")
        words.durationModifiers.add(["menos de"], "less")
        words.periodParts.add(["início de", "inicio de", "começo de"], "start")
        words.periodParts.add(["meados de"], "mid")
        words.periodParts.add(["fim de", "final de", "fins de"], "end")
        words.orLater.add(["ou depois", "ou mais tarde"], true)
        words.dayParts.add(["ontem à noite", "ontem a noite"], DayPart(days: -1, part: DateTimeLexicon.night))
        // Holidays by name, with a year after them or not ("dia do trabalho", "natal de 2018").
        let holidays: [([String], Holiday)] = [
            (["ano novo", "dia de ano novo"], .fixed(month: 1, day: 1)),
            (["dia de reis"], .fixed(month: 1, day: 6)),
            (["tiradentes", "dia de tiradentes"], .fixed(month: 4, day: 21)),
            (["dia do trabalho", "dia do trabalhador"], .fixed(month: 5, day: 1)),
            (["dia de finados"], .fixed(month: 11, day: 2)),
            (["véspera de natal"], .fixed(month: 12, day: 24)),
            (["natal", "dia de natal"], .fixed(month: 12, day: 25)),
            (["páscoa", "domingo de páscoa"], .easter(days: 0)),
            (["sexta-feira santa"], .easter(days: -2)),
            (["carnaval", "terça-feira de carnaval"], .easter(days: -47)),
        ]
        for (names, holiday) in holidays { words.holidays.add(names, holiday) }
        words.holidayYearLeads.add(["de", "do"], true)
        return words
    }()
}
