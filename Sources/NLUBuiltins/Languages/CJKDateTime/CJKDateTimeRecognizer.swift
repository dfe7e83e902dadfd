/// LUIS datetimeV2 entities in Chinese and Japanese, read on characters (nothing separates a date from the words
/// around it): dates, times, dates with a time or a part of the day, ranges between two of them ("从一月十日到十二日",
/// "午後5時から6時まで"), open ranges ("2010年1月4日或之前", "2018年以降", "明日から"), durations ("3天", "3時間"),
/// moments and spans counted from now ("5年前", "2小时后", "今後5日間") and repetitions ("每周一", "毎週").
/// Values are written as English writes them (``DateTimeValues``, ``DateTimeModifier``), resolved against the
/// reference time.
///
/// Like the other date-time recognizers it offers every reading that starts at each position and lets the longest
/// win in ``BuiltinRecognizer``; each reading looks a bounded distance ahead, so a text is read in linear time.
struct CJKDateTimeRecognizer: EntityRecognizer {
    let numerals: CJKNumerals
    let words: CJKDateTimeWords
    /// The characters a reading can start with (a word's first, a numeral, a digit), gathered once: most of a text
    /// starts none, and is passed over without trying a table.
    private let starts: ScalarSet

    init(numerals: CJKNumerals, words: CJKDateTimeWords) {
        self.numerals = numerals
        self.words = words
        var starts = Set(numerals.digits.keys).union(numerals.smallUnits.keys)
        starts.formUnion((0...9).compactMap { Unicode.Scalar(0x30 + $0) } + (0...9).compactMap { Unicode.Scalar(0xFF10 + $0) })
        let lists: [[CJKDateTimeWords.Word]] = [
            words.firstMonthWords, words.lunarPrefixes, words.eras.map(\.0), words.relativeDays.map(\.0), words.weekdays.map(\.0),
            words.shifts.map(\.0), words.relativeYears.map(\.0), words.weekendWords, words.partsOfDay.map(\.0),
            words.relativePartsOfDay.map(\.0), words.namedTimes.map(\.0), words.approximatePrefixes, [words.half], words.fewWord.map { [$0] } ?? [],
            words.pastSpanPrefixes, words.nextSpanPrefixes, words.everyWords, words.rangeStarts, words.modifierPrefixes.map(\.0),
            words.halves.map(\.0), words.nowWords, words.namedDays.map(\.0), words.periodEnds.map(\.0), words.durationLeads,
        ]
        for list in lists { starts.formUnion(list.compactMap(\.first)) }
        self.starts = ScalarSet(starts)
    }

    var produces: Set<BuiltinEntityType> { BuiltinEntityType.dateTimeTypes }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let characters = CJKDateTimeText(scalars: text.scalars, numerals: numerals)
        let phrases = CJKDateTimePhrases(read: CJKDateTimeReader(text: characters, words: words, today: context.reference.date),
                                         durations: CJKDurations(text: characters, words: words), reference: context.reference)
        for index in 0..<characters.count where starts.contains(characters.scalars[index])
            && (!characters.isNumeral(index - 1) || !characters.isNumeral(index)) {
            phrases.candidates(at: index) { type, end, values in
                let values = values.filter(SupportedYearsCheck.writesOnlySupportedDates)
                guard context.wants(type), end > index, !values.isEmpty else { return }
                matches.append(EntityMatch(type: type, start: index, end: end, resolution: .dateTimes(values)))
            }
        }
    }
}
