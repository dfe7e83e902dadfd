/// French date-time words (Recognizers-Text's French DateTimeModel spec, read for its meaning): "3 mars 2024",
/// "le 3/4", "demain à 15h30", "sept heures moins dix", "lundi prochain", "dans 3 jours", "il y a 2 semaines",
/// "du 3 au 5 mars", "la semaine prochaine", "chaque lundi", "tous les jours".
enum FrenchDateTimeWords {
    static let lexicon: DateTimeLexicon = {
        var words = DateTimeLexicon()
        for (month, names) in [["janvier"], ["février"], ["mars"], ["avril"], ["mai"], ["juin"], ["juillet"], ["août"],
                               ["septembre"], ["octobre"], ["novembre"], ["décembre"]].enumerated() {
            words.months.add(names, month + 1)
        }
        for (month, names) in [["janv", "jan"], ["févr", "fév", "fev", "feb"], ["mar"], ["avr", "apr"], [], [], ["juil", "jul"], ["aoû", "aug"],
                               ["sept", "sep"], ["oct"], ["nov"], ["déc", "dec"]].enumerated() {
            words.monthAbbreviations.add(names, month + 1)
        }
        for (day, names) in [["lundi"], ["mardi"], ["mercredi"], ["jeudi"], ["vendredi"], ["samedi"], ["dimanche"]].enumerated() {
            words.weekdays.add(names, day + 1)
        }
        for (day, names) in [["lun"], ["mar"], ["mer"], ["jeu"], ["ven"], ["sam"], ["dim"]].enumerated() {
            words.weekdayAbbreviations.add(names, day + 1)
        }
        words.relativeDays.add(["aujourd'hui", "ce jour"], 0)
        words.relativeDays.add(["demain", "lendemain"], 1)
        words.relativeDays.add(["après-demain", "après demain"], 2)
        words.relativeDays.add(["hier"], -1)
        words.relativeDays.add(["avant-hier", "avant hier"], -2)
        words.partsOfDay.add(["matin", "matinée"], DateTimeLexicon.morning)
        words.partsOfDay.add(["après-midi", "après midi", "aprem"], DateTimeLexicon.afternoon)
        words.partsOfDay.add(["soir", "soirée"], DateTimeLexicon.evening)
        words.partsOfDay.add(["nuit"], DateTimeLexicon.night)
        words.partOfDayLeads.add(["dans le", "dans la", "le", "la", "l'", "en", "en fin de", "dans l'", "pendant le", "pendant la", "durant le", "durant la"], true)
        words.partsOfDay.add(["l'après-midi", "l'après midi", "l'aprem"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["du matin", "le matin", "dans le matin", "de la matinée"], DateTimeLexicon.morning)
        words.timeSuffixes.add(["de l'après-midi", "de l'après midi", "l'après-midi", "apres-midi", "après-midi", "de l'aprem"], DateTimeLexicon.afternoon)
        words.timeSuffixes.add(["du soir", "ce soir", "le soir", "dans la soirée", "de la soirée"], DateTimeLexicon.evening)
        words.timeSuffixes.add(["de la nuit", "cette nuit", "la nuit"], DateTimeLexicon.night)
        words.units = DateTimeLexicon.units(years: ["an", "ans", "année", "années", "annee", "annees"], months: ["mois"],
                                            weeks: ["semaine", "semaines", "sem"], days: ["jour", "jours", "journée", "journées", "j", "nuits"],
                                            hours: ["heure", "heures", "h", "hr", "hrs"], minutes: ["minute", "minutes", "min", "mins"],
                                            seconds: ["seconde", "secondes", "sec", "secs", "s"],
                                            decades: ["décennie", "décennies"], centuries: ["siècle", "siècles"])
        words.periods.add(["semaine"], DateTimeLexicon.week)
        words.periods.add(["mois"], DateTimeLexicon.month)
        words.periods.add(["année", "an", "l'année", "l'an"], DateTimeLexicon.year)
        words.quarters.add(["trimestre"], true)
        words.firstOrLast.add(["premier", "première", "premiers", "premières"], true)
        words.firstOrLast.add(["dernier", "dernière", "derniers", "dernières"], false)
        words.decadesOf.add(["les années"], true)
        words.decadeOfYear.add(["décennie de", "la décennie de"], true)
        words.periodParts.add(["début", "début de", "au début de", "début d'"], "start")
        words.periodParts.add(["mi", "mi-", "milieu de", "au milieu de"], "mid")
        words.periodParts.add(["fin", "fin de", "à la fin de", "fin d'"], "end")
        words.hourWords.add(["heure", "heures", "h"], true)
        words.minuteWords.add(["minute", "minutes", "min"], true)
        words.timeLeads.add(["à", "a", "vers", "est", "dès"], true)
        words.minuteFractions.add(["et demie", "et demi"], 30)
        words.minuteFractions.add(["et quart"], 15)
        words.minuteFractions.add(["moins le quart", "moins quart"], -15)
        words.minus.add(["moins"], true)
        words.plus.add(["et"], true)
        words.namedHours.add(["midi"], 12)
        words.namedHours.add(["minuit"], 0)
        words.soonest.add(["le plus tôt possible", "dès que possible", "au plus vite"], true)
        words.endOf.add(["fin de", "la fin de", "à la fin de"], true)
        words.within.add(["dans les", "d'ici les"], true)
        words.now.add(["maintenant", "en ce moment", "à l'instant", "actuellement"], true)
        words.this.add(["ce", "cette", "cet"], true)
        words.relativeBefore.add(["prochain", "prochaine", "prochains", "prochaines"], 1)
        words.relativeBefore.add(["dernier", "dernière", "derniers", "dernières"], -1)
        words.relativeAfter.add(["prochain", "prochaine", "prochains", "prochaines", "suivant", "suivante", "qui vient"], 1)
        words.relativeAfter.add(["dernier", "dernière", "derniers", "dernières", "passé", "passée", "précédent", "précédente"], -1)
        words.articles.add(["le", "la", "l'", "les"], true)
        words.dateJoiners.add(["de"], true)
        words.dayArticles.add(["le"], true)
        words.durationModifiers.add(["plus de"], "more")
        words.durationModifiers.add(["moins de"], "less")
        words.rangeStarts.add(["de", "du", "depuis le", "à partir du"], true)
        words.rangeJoiners.add(["à", "a", "au", "jusqu'à", "jusqu'a", "jusqu'au", "-", "~"], true)
        words.betweenWords.add(["entre", "entre le"], true)
        words.betweenJoiners.add(["et", "et le"], true)
        words.inFuture.add(["dans", "d'ici"], true)
        words.ago.add(["il y a", "il ya", "il y a à peu près", "il y a environ"], true)
        words.each.add(["chaque", "tous les", "toutes les"], true)
        words.repeatAdverbs.add(["quotidien", "quotidienne", "quotidiennement", "journalier"], "P1D")
        words.repeatAdverbs.add(["hebdomadaire", "hebdomadairement"], "P1W")
        words.repeatAdverbs.add(["mensuel", "mensuelle", "mensuellement"], "P1M")
        words.repeatAdverbs.add(["annuel", "annuelle", "annuellement"], "P1Y")
        words.repeatAdverbs.add(["trimestriel", "trimestrielle", "trimestriellement"], "P3M")
        words.repeatAdverbs.add(["une fois par jour"], "P1D")
        words.repeatAdverbs.add(["une fois par semaine"], "P1W")
        words.repeatAdverbs.add(["une fois par mois"], "P1M")
        words.repeatAdverbs.add(["une fois par an"], "P1Y")
        words.few.add(["quelques", "quel ques"], true)
        words.whole.add(["toute le", "toute la", "tout le", "toute l'", "toute une", "tout un"], true)
        words.seasons.add(["été"], "SU")
        words.seasons.add(["hiver"], "WI")
        words.seasons.add(["printemps"], "SP")
        words.seasons.add(["automne"], "FA")
        words.modifiers.add(["avant", "avant le", "avant la"], .before)
        words.modifiers.add(["après", "après le", "après la"], .after)
        words.modifiers.add(["depuis"], .since)
        words.modifiers.add(["vers", "environ"], .approx)
        return words
    }()
}
