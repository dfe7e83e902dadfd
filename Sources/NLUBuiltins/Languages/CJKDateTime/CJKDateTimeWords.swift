/// The date-time words of a language written without spaces (Chinese, Japanese), read on characters by
/// ``CJKDateTimeRecognizer``: what marks a year, a month, a day and the clock, the words for days, weeks, months
/// and years counted from today, parts of the day, duration units, and the words before and after a date-time that
/// make it a range ("从…到…", "…から…まで") or open-ended ("…或之前", "…以降"). Numbers inside them are read with the
/// language's ``CJKNumerals``.
///
/// The tables follow Microsoft Recognizers-Text's Chinese and Japanese DateTime specs (written here, not copied).
struct CJKDateTimeWords: Sendable {
    typealias Word = [Unicode.Scalar]

    /// After a number: a year ("年"), a month ("月"), a day of the month ("日", "号").
    var yearMarks: [Word]
    var monthMarks: [Word]
    var dayMarks: [Word]
    /// Whether a day number may follow a month without its mark ("八月十五", "十月初一"): Chinese.
    var bareDayAfterMonth: Bool
    /// "初一"… "初十": the first ten days of a (lunar) month.
    var earlyDayPrefix: Word?
    /// Words for the first month ("正月").
    var firstMonthWords: [Word]
    /// Words before a date that say it is a lunar date, kept in its text ("农历", "旧暦の").
    var lunarPrefixes: [Word]
    /// Eras: name and the year before their first year ("平成" 1988: 平成元年 is 1989).
    var eras: [(Word, Int)]
    /// "元": the first year of an era.
    var firstYearWord: Word

    /// Days counted from today: "明天" +1, "昨日" −1.
    var relativeDays: [(Word, Int)]
    /// Weekday names and their ISO number, whole ("星期一", "月曜日"), longest first.
    var weekdays: [(Word, Int)]
    /// Words that count weeks and months from this one ("下" +1 in "下周一", "下个月"; "来" in "来週", "先" −1 in "先月"),
    /// the classifiers that may follow them ("个"), and the words for a week ("周", "週") and a month ("月") after them.
    var shifts: [(Word, Int)]
    var classifiers: [Word]
    var weekWords: [Word]
    var monthWords: [Word]
    /// Years counted from this one: "明年" +1, "去年" −1.
    var relativeYears: [(Word, Int)]
    /// "周末", "週末": the weekend, after a shift ("下下周末", "今週末").
    var weekendWords: [Word]
    /// Between a relative week, month or year and what follows it ("来週の月曜日", "今年の9月"): "の".
    var linkers: [Word]

    /// Parts of the day, before or as a time ("下午", "午後", "夜"); `standsAlone`: also a range said alone or after a day
    /// ("明天上午"); the others only set the clock's half ("凌晨2点半").
    var partsOfDay: [(Word, DateTimeWords.PartOfDay, standsAlone: Bool)]
    /// Today's parts said as one word ("今晚", "今朝", "昨夜"): days from today and the part.
    var relativePartsOfDay: [(Word, Int, DateTimeWords.PartOfDay)]
    /// The clock's marks: hour ("点", "時"), minute ("分"), second ("秒"), half an hour ("半"), quarters ("刻").
    var hourMarks: [Word]
    var minuteMarks: [Word]
    var secondMarks: [Word]
    var halfHour: Word
    var quarterMark: Word?
    /// "整": on the hour, kept in the text.
    var exactHourWords: [Word]
    /// Times said as words: "正午" 12:00, "真夜中" 00:00.
    var namedTimes: [(Word, Int)]
    /// Words of "about" before a time that LUIS keeps without a Mod ("大约十点"), and after one with Mod approx ("ごろ").
    var approximatePrefixes: [Word]
    var approximateSuffixes: [Word]

    /// Duration units after a number: word and unit, longest first ("个小时", "時間").
    var durationUnits: [(Word, DateTimeWords.Unit)]
    /// "半": half a unit ("半小时", "三年半").
    var half: Word
    /// Words joining the parts of a duration ("又", "余", "多").
    var durationJoiners: [Word]
    /// "数": a few, read as 3 ("数時間").
    var fewWord: Word?
    /// After a duration: ago ("前") and later ("后", "後"); `inTime` ("で"): that long from now.
    var agoWords: [Word]
    var laterWords: [Word]
    var inTimeWords: [Word]
    /// Before a duration: the span up to now ("过去", "過去") and from now ("今後", "未来").
    var pastSpanPrefixes: [Word]
    var nextSpanPrefixes: [Word]
    /// Every ("每", "毎") before a unit or a weekday; "ごとに" after a duration.
    var everyWords: [Word]
    var everySuffixes: [Word]

    /// Range words: before the start ("从"), between ("到", "から"), after the end ("まで", "之间").
    var rangeStarts: [Word]
    var rangeJoiners: [Word]
    var rangeEnds: [Word]
    /// Modifiers after a date-time ("或之前" until, "以降" after), and before one ("自从" since, "截止到" before).
    var modifierSuffixes: [(Word, DateTimeModifier)]
    var modifierPrefixes: [(Word, DateTimeModifier)]
    /// Whether a date's "after" starts on that day (Chinese "2010-01-01之后" starts 2010-01-01), not the day after.
    var afterDateStartsThatDay: Bool
    /// Halves of a year ("上半年", "前半"), said after a year or alone: word and which half (1, 2).
    var halves: [(Word, Int)]
    /// Whether a clock range without a part of the day ("5:00到6:00", "4時から7時まで") is also read twelve hours later.
    var clockRangeReadsBothHalves: Bool
    /// Whether a moment some hours or minutes from now keeps only its date in the TIMEX ("2小时后": "2018-08-30").
    var momentTimexKeepsOnlyDate: Bool
    /// After a duration: at least or at most that long ("以上" more, "以下" less); within that long from today ("以内").
    var durationModifiers: [(Word, String)]
    var withinWords: [Word]
    /// "今": the present moment (PRESENT_REF), unless one of `notNowAfter` follows ("今後", "今夏").
    var nowWords: [Word]
    var notNowAfter: [Word]
    /// Days named by a word: "元旦" January 1st, "大晦日" December 31st.
    var namedDays: [(Word, month: Int, day: Int)]
    /// The end of this year or month said in one word ("年末", "月末"): its second half, Mod "end".
    var periodEnds: [(Word, CJKDaySpan.Unit)]
    /// After a year or a number of tens: a decade ("1990年代", "九十年代"); after a number: a century ("15世紀").
    var decadeMarks: [Word]
    var centuryMarks: [Word]
    /// Before a duration, kept in its text: "まる" (whole: "まる1日").
    var durationLeads: [Word]
    /// Joiners of a range that need a word closing it ("和" only in "X和Y之间").
    var joinersNeedingEnd: [Word]
    /// After a year, a month or a week: its start or end ("初め", "終わりごろ": Mod "start", "end"), and after a month its
    /// thirds ("上旬", "中旬", "下旬", "半ば": "start", "mid", "end").
    var periodParts: [(Word, String)]
    var monthThirds: [(Word, String)]
    /// After a day: its last moment ("日曜日の終わり": 23:59:59).
    var dayEnds: [Word]
    /// Weeks counted in a year or a month: "第" before a number and the first and last ("最初の", "最後の") before the week.
    var ordinalPrefix: Word
    var firstWords: [Word]
    var lastWords: [Word]
    /// Seasons after a year counted from this one ("今年夏天", "今年の夏"), and this year's said in one word ("今夏").
    var seasons: [(Word, String)]
    var thisYearSeasons: [(Word, String)]
    /// Names holding a date word that are no date: "今日头条" (a newspaper), "明日之后" (a game).
    var names: [Word]
    /// Today's end said in words ("一日の終わり": 23:59:59).
    var todayEnds: [Word]

    static func word(_ text: String) -> Word { Array(text.unicodeScalars) }
    static func words(_ texts: [String]) -> [Word] { texts.map(word).sorted { $0.count > $1.count } }
    static func pairs<T>(_ list: [(String, T)]) -> [(Word, T)] {
        list.map { (word($0.0), $0.1) }.sorted { $0.0.count > $1.0.count }
    }
    static func parts(_ list: [(String, DateTimeWords.PartOfDay, Bool)]) -> [(Word, DateTimeWords.PartOfDay, standsAlone: Bool)] {
        list.map { (word($0.0), $0.1, standsAlone: $0.2) }.sorted { $0.0.count > $1.0.count }
    }
}

extension DateTimeWords.PartOfDay {
    static let morning = Self(code: "MO", start: (8, 0, 0), end: (12, 0, 0), afternoon: false)
    static let afternoonPart = Self(code: "AF", start: (12, 0, 0), end: (16, 0, 0), afternoon: true)
    static let evening = Self(code: "EV", start: (16, 0, 0), end: (20, 0, 0), afternoon: true)
    static let night = Self(code: "NI", start: (20, 0, 0), end: (23, 59, 59), afternoon: true)
    static let midday = Self(code: "MI", start: (11, 0, 0), end: (13, 0, 0), afternoon: false)
}
